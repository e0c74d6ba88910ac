import { MemoryStore } from 'agent-teams';
import { storeConformance } from '../conformance.js';

storeConformance('MemoryStore', () => new MemoryStore());
