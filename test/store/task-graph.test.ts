import { FileStore, MemoryStore } from 'agent-teams';
import { tempFolder } from '../helpers/temp-folder.js';
import { taskGraphConformance } from './task-graph-conformance.js';

taskGraphConformance('MemoryStore', () => new MemoryStore());
taskGraphConformance('FileStore', () => new FileStore({ root: tempFolder() }));
