export {
  type FakeOpenAIServer,
  type FakeOpenAIServerOptions,
  fakeOpenAIServer,
  type ReceivedRequest,
  type ServedAnswer,
} from './fake-openai-server.js';
export type { FaultedCall, FaultScript, ModelFault } from './faults.js';
export { type ManualClock, manualClock } from './manual-clock.js';
export type { Script, ScriptedCall, ScriptedReply, ScriptedToolCall, ToolResult } from './scripted-call.js';
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ServedTokens,
  scriptedModel,
} from './scripted-model.js';
export type { WireApiName, WireBody } from './wire.js';
