import { STORES } from '../helpers/stores.js';
import { leadGraphCases, personBoardCases } from './person-board-cases.js';

for (const [kind, makeStore] of STORES) {
  personBoardCases(kind, makeStore);
  leadGraphCases(kind, makeStore);
}
