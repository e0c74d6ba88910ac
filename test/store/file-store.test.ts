import { FileStore } from 'agent-teams';
import { tempFolder } from '../helpers/temp-folder.js';
import { storeConformance } from './conformance.js';

storeConformance('FileStore', () => new FileStore({ root: tempFolder() }));
