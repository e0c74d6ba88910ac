/**
 * The first line of the messages a turn is given between its steps (they came while it ran):
 * the turn writes it, and the testing kit's scripted models tell such text from a briefing by it.
 */
export const NEW_MESSAGES_HEADER =
  '[new messages, sent to you while you worked: take them into account from your next step]';
