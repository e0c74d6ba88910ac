// The source's floors (ARCHITECTURE.md draws them): each folder imports only from the
// folders below it, never from one above or beside it, and no module is part of a cycle.
// Checked in CI (`npm run layers`).

/** Bottom to top; folders on one line are one floor and may not import each other. */
const floors = [
  ['errors'],
  ['events'],
  ['agent'],
  ['telemetry'],
  ['testing'],
  ['board'],
  ['mailbox'],
  ['roster'],
  ['requests'],
  ['store'],
  ['fold'],
  ['prompt'],
  ['tools'],
  ['turn'],
  ['run'],
  ['team'],
  ['studio'],
  ['cli'],
];

const folder = (name) => `^src/${name}/`;

const layerRules = floors.flatMap((names, level) => {
  const above = floors.slice(level + 1).flat();
  return names
    .filter(() => above.length + names.length > 1)
    .map((name) => ({
      name: `floor-${name}`,
      comment: `${name}/ may import only from the folders below it: ${floors.slice(0, level).flat().join(', ') || 'none'}.`,
      severity: 'error',
      from: { path: folder(name) },
      to: {
        path: [...above, ...names.filter((other) => other !== name)].map(folder),
      },
    }));
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-cycle',
      comment: 'No module imports itself through others: the floors hold inside each folder too.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'entries-through-indexes',
      comment: "The package's entries export what each folder's index.ts chooses, never a deep path.",
      severity: 'error',
      from: { path: '^src/(index|testing|postgres)[.]ts$' },
      to: {
        path: '^src/',
        pathNot: '^src/[^/]+/index[.]ts$|^src/store/postgres/index[.]ts$|^src/turn/workers/index[.]ts$',
      },
    },
    {
      name: 'known-folders',
      comment:
        'Every source folder has its floor above: a new folder must be placed in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${floors.flat().join('|')})/|^src/[^/]+[.]ts$` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
