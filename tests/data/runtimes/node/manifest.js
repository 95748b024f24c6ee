'use strict';
// Writes MANIFEST.tsv from RUNS.tsv and the profiles beside it:
//
//   node manifest.js            (run by capture.sh, in this folder)
//
// The truth of each shape (which function each injected change enters, as
// profdiff prints it) is the table below; README.md explains it.

const fs = require('fs');
const path = require('path');
const { inspect } = require('./inspect');

// shape -> { wall: [regress, improve], heap: [regress, improve] }
const TRUTH = {
  none: { wall: ['-', '-'], heap: ['-', '-'] },
  new: { wall: ['checkFraud', '-'], heap: ['-', '-'] },
  leaf25: { wall: ['applyDiscounts', '-'], heap: ['-', '-'] },
  leaf10: { wall: ['applyDiscounts', '-'], heap: ['-', '-'] },
  spread: { wall: ['priceBasket', '-'], heap: ['-', '-'] },
  helper: { wall: ['normalizeText', '-'], heap: ['-', '-'] },
  caller: { wall: ['computeShipping', '-'], heap: ['-', '-'] },
  recursion: { wall: ['walkCategory', '-'], heap: ['-', '-'] },
  two: { wall: ['matchScore;encodeResponse', '-'], heap: ['-', '-'] },
  mixed: { wall: ['lookupRate', 'renderResponse'], heap: ['-', '-'] },
  saturated: { wall: ['searchCatalog;rankResults', '-'], heap: ['-', '-'] },
  alloc: { wall: ['cacheQuote', '-'], heap: ['cacheQuote', '-'] },
  heap3x: { wall: ['recordAudit', '-'], heap: ['recordAudit', '-'] },
};

const INDEXES = {
  'node-datadog': { wall: 'wall,cpu', heap: 'inuse_space,inuse_objects' },
  'node-pprof': { wall: 'wall', heap: 'space,objects' },
};

const dir = __dirname;
const runs = fs.readFileSync(path.join(dir, 'RUNS.tsv'), 'utf8').trim().split('\n');
const head = runs.shift().split('\t');
const col = (row, name) => row[head.indexOf(name)];

const out = [['file', 'runtime', 'kind', 'run', 'seed', 'variant', 'regress', 'improve',
  'indexes', 'seconds', 'samples'].join('\t')];
for (const line of runs) {
  const r = line.split('\t');
  const prefix = col(r, 'prefix');
  const runtime = col(r, 'runtime');
  const variant = col(r, 'variant');
  for (const kind of ['wall', 'heap']) {
    const file = `${prefix}.${kind}.pb.gz`;
    // A heap profile's samples are undone at its own period, the sampling
    // interval service.js --heap-interval gave the profiler.
    const facts = inspect(path.join(dir, file));
    const [regress, improve] = TRUTH[variant][kind];
    const seconds = kind === 'wall' ? facts.seconds.toFixed(3) : Number(col(r, 'heap_s')).toFixed(3);
    out.push([file, runtime, kind, col(r, 'run'), col(r, 'seed'), variant, regress, improve,
      INDEXES[runtime][kind], seconds, facts.samples].join('\t'));
  }
}
fs.writeFileSync(path.join(dir, 'MANIFEST.tsv'), out.join('\n') + '\n');
process.stdout.write(`MANIFEST.tsv: ${out.length - 1} files\n`);
