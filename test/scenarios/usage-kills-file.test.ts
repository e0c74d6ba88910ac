import { suite } from './usage-kills.js';

// SIGKILL at seeded points of a run on the FileStore, resumed: usage equals what the model server served (see usage-kills.ts).
suite('file');
