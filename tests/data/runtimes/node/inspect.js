'use strict';
// Prints the facts of pprof files that MANIFEST.tsv records, one JSON line
// per file, read with pprof-format (a dependency of @datadog/pprof):
//
//   node inspect.js FILE.pb.gz ...
//
// types     the sample types, as type/unit
// records   the number of Sample messages
// totals    each sample type's sum over all records
// seconds   duration_nanos, in seconds
// samples   a time profile's samples: the sum of its sample/count values;
//           a heap profile's sampled allocations: V8 scales each sampled
//           allocation of size s by 1/(1-exp(-s/rate)), so the count of
//           samples behind a record of n objects of s bytes is
//           round(n * (1-exp(-s/rate))), with rate the sampling interval
//           (service.js --heap-interval, which both profilers write as the
//           profile's period; --rate overrides it); Datadog's `(external)`
//           record (external memory, one object, not a sampled allocation)
//           counts as none.
//
// With --functions it adds the names of the functions the samples hold.

const fs = require('fs');
const zlib = require('zlib');
const { Profile } = require('pprof-format');

function inspect(file, rate = null, withFunctions = false) {
  let buf = fs.readFileSync(file);
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
  const p = Profile.decode(buf);
  if (!rate) rate = Number(p.period) > 1 ? Number(p.period) : 32768;
  const str = (i) => p.stringTable.strings[Number(i)];
  const types = p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`);
  const totals = types.map(() => 0);
  for (const s of p.sample) s.value.forEach((v, k) => { totals[k] += Number(v); });
  const out = { file, types, records: p.sample.length, totals,
    seconds: Number(p.durationNanos) / 1e9, period: Number(p.period) };
  const countIdx = types.findIndex((t) => t === 'sample/count');
  const objIdx = types.findIndex((t) => /objects\/count$/.test(t));
  const spaceIdx = types.findIndex((t) => /space\/bytes$/.test(t));
  const fnName = new Map(p.function.map((f) => [Number(f.id), str(f.name)]));
  const locs = new Map(p.location.map((l) => [Number(l.id), l]));
  if (countIdx >= 0) {
    out.samples = totals[countIdx];
  } else if (objIdx >= 0 && spaceIdx >= 0) {
    let est = 0;
    for (const s of p.sample) {
      const n = Number(s.value[objIdx]);
      const bytes = Number(s.value[spaceIdx]);
      if (n === 0) continue;
      const leaf = locs.get(Number(s.locationId[0]));
      if (leaf && leaf.line.length && fnName.get(Number(leaf.line[0].functionId)) === '(external)') continue;
      est += n * (1 - Math.exp(-(bytes / n) / rate));
    }
    out.samples = Math.round(est);
  }
  if (withFunctions) {
    const used = new Set();
    for (const s of p.sample) {
      for (const id of s.locationId) {
        for (const line of locs.get(Number(id)).line) used.add(fnName.get(Number(line.functionId)));
      }
    }
    out.functions = [...used].sort();
  }
  return out;
}

module.exports = { inspect };

if (require.main === module) {
  let rate = null;
  let withFunctions = false;
  const files = [];
  for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === '--rate') rate = Number(process.argv[++i]);
    else if (process.argv[i] === '--functions') withFunctions = true;
    else files.push(process.argv[i]);
  }
  for (const file of files) process.stdout.write(JSON.stringify(inspect(file, rate, withFunctions)) + '\n');
}
