import { suite } from './lifecycle-kills.js';

// SIGKILL around each decision of a run's lifecycle, on the FileStore (see lifecycle-kills.ts).
suite('file');
