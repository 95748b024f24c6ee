'use strict';
// A small pricing/search service that serves requests in one thread for a
// fixed wall time, profiled by one of two pprof profilers.  Each process is
// one run: its own --seed, and at most one injected change (--inject SHAPE).
// README.md has the shapes and the function each one changes.
//
//   node service.js --profiler datadog|pprof|none --seed N --inject SHAPE \
//        --out DIR/PREFIX [--seconds 9] [--warmup 2] [--rate 500]
//
// Writes PREFIX.wall.pb.gz (the time profile of the window) and
// PREFIX.heap.pb.gz (the live heap at the end of the window), and prints one
// JSON line of facts about the run on stdout.

const fs = require('fs');

// ---------------------------------------------------------------- options
const opts = {
  profiler: 'none', seed: 1, inject: 'none', out: '', seconds: 9,
  warmup: 2, rate: 500, intervalUs: 10000, heapInterval: 32 * 1024,
};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const v = process.argv[i + 1];
  switch (a) {
    case '--profiler': opts.profiler = v; i++; break;
    case '--seed': opts.seed = Number(v); i++; break;
    case '--inject': opts.inject = v; i++; break;
    case '--out': opts.out = v; i++; break;
    case '--seconds': opts.seconds = Number(v); i++; break;
    case '--warmup': opts.warmup = Number(v); i++; break;
    case '--rate': opts.rate = Number(v); i++; break;
    case '--interval-us': opts.intervalUs = Number(v); i++; break;
    case '--heap-interval': opts.heapInterval = Number(v); i++; break;
    default:
      process.stderr.write(`service.js: unknown option ${a}\n`);
      process.exit(2);
  }
}
const SHAPES = ['none', 'new', 'leaf25', 'leaf10', 'spread', 'helper', 'caller',
  'recursion', 'two', 'mixed', 'saturated', 'alloc', 'heap3x'];
if (!SHAPES.includes(opts.inject)) {
  process.stderr.write(`service.js: unknown shape ${opts.inject}\n`);
  process.exit(2);
}
const SHAPE = opts.inject;

// The knobs the shapes turn.  Everything else is the same in every run.
const K = {
  discountTurns: 3200,       // applyDiscounts: rule-engine turns per basket line
  scanItems: 200,            // searchCatalog: catalog items scanned per request
  fuzzy: false,              // matchScore: also scores near misses (two)
  normalizePasses: 1,        // normalizeText: cleanup passes over the text
  shippingQuotes: 1,         // computeShipping: carriers quoted (lookupRate calls) per line
  rateProbes: 6,             // lookupRate: bands probed per call
  facetDepth: 6,             // walkCategory: levels of the category tree walked
  rowVariants: 5,            // renderResponse: row variants rendered per hit
  cheapestPerLine: false,    // priceBasket: sortByPrice for each line (spread)
  fraudCheck: false,         // handleRequest: calls checkFraud (new)
  safeJson: false,           // encodeResponse: indented, HTML-safe JSON (two)
  cacheCopies: 1,            // cacheQuote: copies of the quote built and kept per entry
  auditKeepEvery: 3,         // recordAudit: keeps one record in N
};
switch (SHAPE) {
  case 'new': K.fraudCheck = true; break;
  case 'leaf25': K.discountTurns = Math.round(3200 * 1.25); break;
  case 'leaf10': K.discountTurns = Math.round(3200 * 1.10); break;
  case 'spread': K.cheapestPerLine = true; break;
  case 'helper': K.normalizePasses = 3; break;
  case 'caller': K.shippingQuotes = 4; break;
  case 'recursion': K.facetDepth = 7; break;
  case 'two': K.fuzzy = true; K.safeJson = true; break;
  case 'mixed': K.rowVariants = 3; K.rateProbes = 18; break;
  case 'saturated': K.scanItems = 3600; break;
  case 'alloc': K.cacheCopies = 3; break;
  case 'heap3x': K.auditKeepEvery = 1; break;
}

// ---------------------------------------------------------------- profiler
let profiler = null;
if (opts.profiler === 'datadog') profiler = require('@datadog/pprof');
else if (opts.profiler === 'pprof') profiler = require('pprof');
else if (opts.profiler !== 'none') {
  process.stderr.write(`service.js: unknown profiler ${opts.profiler}\n`);
  process.exit(2);
}
// The heap profiler samples from the start, so the live heap at the end has
// every allocation site that still holds memory, startup included.
if (profiler) profiler.heap.start(opts.heapInterval, 64);
const heapStartedAt = Number(process.hrtime.bigint()) / 1e6;

// ---------------------------------------------------------------- data
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = mulberry32(opts.seed * 7919 + 17);
const pick = (arr) => arr[Math.floor(rng() * arr.length)];

const WORDS = ('Red Blue Green Black White Silver Steel Oak Walnut Linen Cotton ' +
  'Wool Leather Glass Ceramic Compact Deluxe Pro Mini Max Ultra Classic Modern ' +
  'Rustic Smart Wireless Portable Folding Outdoor Kitchen Garden Office Travel ' +
  'Lamp Chair Table Kettle Blender Backpack Jacket Boots Speaker Charger Mug ' +
  'Shelf Rug Pillow Blanket Drill Saw Tent Bottle Watch Camera Headphones ' +
  'Café Crème Über Señor Ångström').split(' ');
const REGIONS = ['eu-west', 'eu-north', 'us-east', 'us-west', 'ap-south', 'sa-east'];
const CATALOG_SIZE = 6000;

function buildCatalog(n) {
  const items = [];
  for (let i = 0; i < n; i++) {
    const words = [];
    const w = 2 + Math.floor(rng() * 4);
    for (let j = 0; j < w; j++) words.push(pick(WORDS));
    const name = words.join(' ');
    items.push({
      id: i,
      name,
      words: normalizeText(name).split(' '),
      category: Math.floor(rng() * 128),
      price: 199 + Math.floor(rng() * 50000),
      weight: 1 + Math.floor(rng() * 40),
      rating: 1 + rng() * 4,
      stock: Math.floor(rng() * 200),
      tags: [normalizeText(pick(WORDS)), normalizeText(pick(WORDS))],
    });
  }
  return items;
}

function buildCategoryTree(depth, id) {
  const node = { id, count: 0, sum: 0, children: [] };
  if (depth > 0) {
    node.children.push(buildCategoryTree(depth - 1, id * 2 + 1));
    node.children.push(buildCategoryTree(depth - 1, id * 2 + 2));
  }
  return node;
}

const RATE_TABLE = [];
for (let i = 0; i < 96; i++) {
  RATE_TABLE.push({ kind: i % 2 ? 'ship' : 'tax', region: REGIONS[i % REGIONS.length],
    band: i % 8, rate: 0.03 + (i % 11) / 100, floor: (i % 5) * 10, cap: 500 + (i % 7) * 100 });
}

const DISCOUNT_RULES = [
  { kind: 'volume', min: 3, pct: 0.05 },
  { kind: 'loyalty', min: 0, pct: 0.03 },
  { kind: 'seasonal', min: 0, pct: 0.08 },
  { kind: 'clearance', min: 0, pct: 0.15 },
  { kind: 'bundle', min: 2, pct: 0.04 },
  { kind: 'coupon', min: 1, pct: 0.02 },
  { kind: 'member', min: 0, pct: 0.01 },
  { kind: 'flash', min: 0, pct: 0.12 },
];

// ---------------------------------------------------------------- the service
// Shared helper, called from parseRequest, buildCatalog, renderResponse,
// cacheQuote and recordAudit.
function normalizeText(s) {
  let out = s;
  for (let p = 0; p < K.normalizePasses; p++) {
    out = out.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
      .toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();
  }
  return out;
}

function formatPrice(cents) {
  const whole = Math.floor(cents / 100);
  const frac = String(cents % 100).padStart(2, '0');
  return `${String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

function parseRequest(raw) {
  const req = JSON.parse(raw);
  req.terms = normalizeText(req.query).split(' ');
  req.userNo = Number(req.user.slice(4));
  return req;
}

// Scores one catalog item against the query: words, tags, category, stock,
// rating and price band each add to the score.
function matchScore(item, terms, req) {
  let score = 0;
  let exact = 0;
  let prefix = 0;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    if (t.length === 0) continue;
    const head = t.length > 3 ? t.slice(0, 3) : t;
    for (let j = 0; j < item.words.length; j++) {
      const w = item.words[j];
      if (w === t) { score += 10; exact++; }
      else if (w.startsWith(head)) { score += 3; prefix++; }
      else if (w.charCodeAt(0) === t.charCodeAt(0)) score += 0.1;
    }
    for (let j = 0; j < item.tags.length; j++) {
      const tag = item.tags[j];
      if (tag === t) score += 4;
      else if (tag.length > 2 && t.length > 2 && tag.charCodeAt(1) === t.charCodeAt(1)) score += 0.2;
    }
    if (K.fuzzy) {
      // Near misses: one edit away, by a row of the edit-distance table.
      for (let j = 0; j < item.words.length; j++) {
        const w = item.words[j];
        if (Math.abs(w.length - t.length) > 1 || w.charCodeAt(0) !== t.charCodeAt(0)) continue;
        let prev = [];
        for (let x = 0; x <= t.length; x++) prev.push(x);
        for (let y = 1; y <= w.length; y++) {
          const cur = [y];
          for (let x = 1; x <= t.length; x++) {
            const cost = w.charCodeAt(y - 1) === t.charCodeAt(x - 1) ? 0 : 1;
            cur.push(Math.min(prev[x] + 1, cur[x - 1] + 1, prev[x - 1] + cost));
          }
          prev = cur;
        }
        if (prev[t.length] === 1) score += 2;
      }
    }
  }
  if (exact > 0 && exact === terms.length) score *= 1.5;
  else if (exact + prefix >= terms.length) score *= 1.2;
  if (item.stock === 0) score *= 0.3;
  else if (item.stock < 5) score *= 0.8;
  if (item.rating > 4.5) score += 1.5;
  else if (item.rating > 3.5) score += 0.5;
  if ((item.category & 7) === (req.userNo & 7)) score += 0.7;
  if (req.budget > 0 && item.price > req.budget) score -= 2;
  return score;
}

function searchCatalog(catalog, req) {
  const hits = [];
  for (let k = 0; k < K.scanItems; k++) {
    const item = catalog[(req.start + k) % catalog.length];
    const score = matchScore(item, req.terms, req);
    if (score >= 1) hits.push({ item, score });
  }
  return hits;
}

function rankResults(hits) {
  hits.sort((a, b) => b.score - a.score || a.item.price - b.item.price);
  return hits.slice(0, 40);
}

// The leaf: a rule engine that settles the stacked discounts of one basket
// line by iterating over the rules; K.discountTurns turns.
function applyDiscounts(line, item, req) {
  const q = line.qty;
  let factor = 1.0;
  let stacked = 0;
  let best = 0;
  for (let t = 0; t < K.discountTurns; t++) {
    const rule = DISCOUNT_RULES[(t + q) & 7];
    let pct = 0;
    switch (rule.kind) {
      case 'volume':
        if (q >= rule.min) pct = rule.pct * (1 + (q - rule.min) * 0.1);
        break;
      case 'loyalty':
        if (req.userNo % 7 === 0) pct = rule.pct;
        else if (req.userNo % 11 === 0) pct = rule.pct * 0.5;
        break;
      case 'seasonal':
        if ((item.category & 15) === (req.n & 15)) pct = rule.pct;
        break;
      case 'clearance':
        if (item.stock > 150 && item.price > 30000) pct = rule.pct;
        else if (item.stock > 100) pct = rule.pct * 0.3;
        break;
      case 'bundle':
        if (q >= rule.min && req.basket.length > 6) pct = rule.pct;
        break;
      case 'coupon':
        if (req.coupon && item.tags[0].length > 4) pct = rule.pct;
        break;
      case 'member':
        if (req.member) pct = rule.pct + (item.rating > 4 ? 0.005 : 0);
        break;
      case 'flash':
        if (((item.id ^ req.n) & 63) === 0) pct = rule.pct;
        break;
      default:
        pct = 0;
    }
    if (pct > best) best = pct;
    stacked += pct;
    factor = factor * (1 - pct * 0.001) + 0.000001 * (t & 3);
  }
  const cap = Math.min(0.4, best + stacked / (K.discountTurns * 40));
  const f = Math.max(1 - cap, Math.min(1, factor));
  return Math.round(item.price * q * f);
}

// Shared by computeTax and computeShipping: the best matching rate of a
// kind, region and band, probing K.rateProbes neighbouring bands, with the
// table's floors, caps, regional fallbacks and rounding rules.
function lookupRate(kind, region, band, amount) {
  let best = 0;
  let matched = 0;
  let fallback = 0;
  let fallbackBand = -1;
  let surcharge = 0;
  for (let p = 0; p < K.rateProbes; p++) {
    const b = (band + p) & 7;
    for (let i = 0; i < RATE_TABLE.length; i++) {
      const r = RATE_TABLE[i];
      if (r.kind !== kind) continue;
      if (r.region === region && r.band === b) {
        let rate = r.rate;
        if (amount < r.floor) rate = rate * 0.5;
        else if (amount > r.cap * 100) rate = rate * 0.9;
        else if (amount > r.cap * 50) rate = rate * 0.95;
        if (p > 0) rate = rate * (1 - p * 0.01);
        if (kind === 'ship' && b >= 6) surcharge = Math.max(surcharge, 0.002 * (b - 5));
        if (kind === 'tax' && region.startsWith('eu') && b === 0) rate = Math.max(rate, 0.07);
        if (rate > best) best = rate;
        matched++;
      } else if (r.band === b) {
        if (fallbackBand < 0 || Math.abs(r.band - band) < Math.abs(fallbackBand - band)) {
          fallback = r.rate;
          fallbackBand = r.band;
        } else if (r.band === fallbackBand && r.rate < fallback) {
          fallback = r.rate;
        }
      }
    }
  }
  if (matched === 0) {
    if (fallbackBand < 0) return kind === 'tax' ? 0.05 : 0.02;
    return Math.round((fallback + surcharge) * 10000) / 10000;
  }
  const rounded = kind === 'tax' ? Math.round(best * 1000) / 1000 : Math.round(best * 10000) / 10000;
  return rounded + surcharge;
}

function computeTax(amount, region, item) {
  return Math.round(amount * lookupRate('tax', region, item.category, amount));
}

function computeShipping(item, qty, region) {
  let best = Infinity;
  for (let c = 0; c < K.shippingQuotes; c++) {
    const r = lookupRate('ship', region, item.weight + c, item.weight * qty);
    const cost = Math.round(item.weight * qty * 40 * (1 + r) + c * 25);
    if (cost < best) best = cost;
  }
  return best;
}

// Exists at a few percent under renderResponse (the 40 ranked hits); shape
// `spread` also calls it from priceBasket for every basket line, on all the
// hits of the search.
function sortByPrice(list) {
  return list.slice().sort((a, b) => a.item.price - b.item.price);
}

function priceBasket(catalog, req, hits) {
  const lines = [];
  let total = 0;
  for (let i = 0; i < req.basket.length; i++) {
    const line = req.basket[i];
    const item = catalog[line.sku % catalog.length];
    const net = applyDiscounts(line, item, req);
    const tax = computeTax(net, req.region, item);
    const shipping = computeShipping(item, line.qty, req.region);
    let cheaper = null;
    if (K.cheapestPerLine) {
      const byPrice = sortByPrice(hits);
      cheaper = byPrice.length && byPrice[0].item.price < item.price ? byPrice[0].item.id : null;
    }
    total += net + tax + shipping;
    lines.push({ sku: item.id, qty: line.qty, net, tax, shipping, cheaper,
      label: formatPrice(net + tax + shipping) });
  }
  return { lines, total, totalLabel: formatPrice(total) };
}

// Recursive: counts the ranked hits under each node of the category tree,
// K.facetDepth levels deep.
function walkCategory(node, depth, hits) {
  let count = 0;
  const shift = 7 - Math.min(depth, 7);
  for (let band = 0; band < 6; band++) {
    for (let i = 0; i < hits.length; i++) {
      const it = hits[i].item;
      if ((it.category >> shift) === ((node.id + band) & 0x7f) && it.price % 6 >= band) count++;
    }
  }
  node.count = count;
  if (depth + 1 >= K.facetDepth) return count;
  let sum = count;
  for (const child of node.children) sum += walkCategory(child, depth + 1, hits);
  node.sum = sum;
  return sum;
}

function categoryFacets(tree, ranked) {
  const total = walkCategory(tree, 0, ranked);
  const facets = [];
  for (const child of tree.children) facets.push({ id: child.id, n: child.sum });
  return { total, facets };
}

const ROW_VARIANTS = ['list', 'grid', 'compact', 'mobile', 'email'];
function renderResponse(req, ranked, quote, facets) {
  const parts = [];
  parts.push(`<h1>Results for ${req.query}</h1>`);
  for (let h = 0; h < ranked.length && h < 20; h++) {
    const hit = ranked[h];
    const slug = normalizeText(hit.item.name).replace(/ /g, '-');
    for (let r = 0; r < K.rowVariants; r++) {
      const v = ROW_VARIANTS[r];
      const row = `<li class="${v}" data-id="${hit.item.id}" data-slug="${slug}-${v}">` +
        `${hit.item.name.toUpperCase()} — ${formatPrice(hit.item.price)} ` +
        `(${hit.score.toFixed(1)}; ${hit.item.tags.join(', ')})</li>`;
      // A weak ETag of the row, so that clients can cache it: FNV-1a over
      // its characters.
      let etag = 2166136261;
      for (let i = 0; i < row.length; i++) {
        etag ^= row.charCodeAt(i);
        etag = Math.imul(etag, 16777619);
      }
      parts.push(`${row}<!-- W/${(etag >>> 0).toString(16)} -->`);
    }
  }
  const cheapest = sortByPrice(ranked);
  for (const hit of cheapest.slice(0, 3)) parts.push(`<b>${hit.item.name}</b>`);
  for (const line of quote.lines) parts.push(`<tr><td>${line.sku}</td><td>${line.label}</td></tr>`);
  parts.push(`<p>Total ${quote.totalLabel}; ${facets.total} in categories</p>`);
  return parts.join('\n');
}

const HTML_ESCAPES = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };
function encodeResponse(req, ranked, quote, facets, html) {
  const doc = {
    user: req.user, region: req.region,
    results: ranked.slice(0, 20).map((h) => ({ id: h.item.id, name: h.item.name, price: h.item.price, score: h.score })),
    quote, facets, html,
  };
  if (!K.safeJson) return JSON.stringify(doc);
  // Shape `two`: indented JSON, with <, > and & escaped so that the body can
  // be embedded in a page.
  return JSON.stringify(doc, null, 2).replace(/[<>&]/g, (c) => HTML_ESCAPES[c]);
}

// New in shape `new`: a risk check that hashes the request's signals in
// rounds, about 30% of a request's work once it is switched on.
function checkFraud(req, quote) {
  const signals = [req.user, req.region, String(quote.total), req.query,
    String(req.basket.length), req.coupon ? 'coupon' : '-', req.member ? 'member' : '-'];
  let h1 = 2166136261;
  let h2 = 5381;
  let risk = 0;
  for (let round = 0; round < 2000; round++) {
    for (let s = 0; s < signals.length; s++) {
      const str = signals[s];
      for (let i = 0; i < str.length; i++) {
        const c = str.charCodeAt(i);
        h1 ^= c + round;
        h1 = Math.imul(h1, 16777619);
        h2 = ((h2 << 5) + h2 + c) | 0;
      }
    }
    if (((h1 ^ h2) & 0xfff) === 0) risk++;
    if (quote.total > 400000 && (h1 & 0xff) === 0) risk += 2;
    if (req.basket.length > 10 && (h2 & 0xff) === 1) risk++;
  }
  for (const line of quote.lines) {
    if (line.qty >= 4 && line.net > 100000) risk++;
    if (line.shipping > line.net) risk++;
  }
  return risk > 3;
}

// Retains: an LRU of the last QUOTE_CACHE quotes, each entry built here
// (K.cacheCopies copies: one, or three in shape `alloc`, which also parses
// the response body back into a transient snapshot for every request).
const QUOTE_CACHE = 2000;
const quoteCache = new Map();
function cacheQuote(req, quote, body) {
  const key = normalizeText(`${req.user} ${req.region} ${req.query}`) + ':' + req.n;
  let shown = -1;
  if (K.cacheCopies > 1) {
    const snapshot = JSON.parse(body);
    shown = snapshot.results.length;
  }
  const copies = [];
  for (let c = 0; c < K.cacheCopies; c++) {
    const lines = [];
    const rows = [];
    for (const l of quote.lines) {
      lines.push({ sku: l.sku, qty: l.qty, net: l.net, tax: l.tax, shipping: l.shipping,
        note: `${req.region}/${l.sku}/${l.qty}/${c}` });
      rows.push(`${l.sku}:${l.qty}:${l.net}:${l.tax}:${l.shipping}:${l.label}:${req.user}`);
    }
    copies.push({ lines, summary: rows.join(';'), at: [req.n, c, quote.total, shown] });
  }
  quoteCache.set(key, { total: quote.total, copies });
  if (quoteCache.size > QUOTE_CACHE) quoteCache.delete(quoteCache.keys().next().value);
}

// Retains: an in-memory audit log that keeps one record in K.auditKeepEvery
// (every record in shape `heap3x`).  Every record is built either way, here
// and not in callbacks, so that its allocations are charged to recordAudit.
const auditLog = [];
function recordAudit(req, quote, ranked) {
  const terms = [];
  for (let i = 0; i < req.terms.length; i++) terms.push(normalizeText(req.terms[i]));
  const lines = [];
  let units = 0;
  let taxed = 0;
  for (let i = 0; i < quote.lines.length; i++) {
    const l = quote.lines[i];
    lines.push([l.sku, l.qty, l.net, l.tax, l.shipping]);
    units += l.qty;
    if (l.tax > 0) taxed++;
  }
  const shown = [];
  const shownNames = [];
  for (let i = 0; i < ranked.length; i++) {
    const h = ranked[i];
    shown.push(h.item.id);
    if (i < 20) shownNames.push(`${h.item.id}:${h.item.name}:${h.score.toFixed(2)}`);
  }
  const masked = req.user.length > 6 ? `${req.user.slice(0, 4)}***${req.user.slice(-2)}` : '***';
  let outcome = 'quoted';
  if (quote.flagged) outcome = 'flagged';
  else if (quote.lines.length === 0) outcome = 'empty';
  else if (ranked.length === 0) outcome = 'no-results';
  const rec = {
    at: req.n, user: masked, terms, region: req.region, lines, units, taxed,
    shown, shownNames, outcome, coupon: req.coupon === true, member: req.member === true,
    text: `${masked} bought ${quote.lines.length} lines (${units} units) for ${quote.totalLabel} ` +
      `in ${req.region} after searching ${req.query}; shown ${ranked.length} results; ${outcome}`,
  };
  if (req.n % K.auditKeepEvery === 0) auditLog.push(rec);
  return rec.text.length;
}

const catalog = buildCatalog(CATALOG_SIZE);
const tree = buildCategoryTree(8, 0);

function handleRequest(raw) {
  const req = parseRequest(raw);
  const hits = searchCatalog(catalog, req);
  const ranked = rankResults(hits);
  const quote = priceBasket(catalog, req, hits);
  const facets = categoryFacets(tree, ranked);
  const html = renderResponse(req, ranked, quote, facets);
  const body = encodeResponse(req, ranked, quote, facets, html);
  if (K.fraudCheck && checkFraud(req, quote)) quote.flagged = true;
  cacheQuote(req, quote, body);
  recordAudit(req, quote, ranked);
  return body.length;
}

// Requests are made as they arrive, as a client would send them.
let requestNo = 0;
function makeRequest() {
  const n = requestNo++;
  const basket = [];
  const lines = 4 + Math.floor(rng() * 9);
  for (let i = 0; i < lines; i++) basket.push({ sku: Math.floor(rng() * CATALOG_SIZE), qty: 1 + Math.floor(rng() * 4) });
  return JSON.stringify({
    n, user: `user${Math.floor(rng() * 5000)}`, region: pick(REGIONS),
    query: `${pick(WORDS)} ${pick(WORDS)}${rng() < 0.5 ? ' ' + pick(WORDS) : ''}`,
    start: Math.floor(rng() * CATALOG_SIZE), basket,
    coupon: rng() < 0.2, member: rng() < 0.3, budget: rng() < 0.5 ? Math.floor(rng() * 40000) : 0,
  });
}

// ---------------------------------------------------------------- the loop
// Open loop: requests arrive at opts.rate per second, with exponential gaps
// drawn from the seed.  Each turn of the event loop serves the requests that
// have arrived, then sleeps until the next one.  When the work per request
// outgrows the gap, the loop never sleeps and requests queue (shape
// `saturated`): the window then serves fewer of them.
const now = () => Number(process.hrtime.bigint()) / 1e6;
const t0 = now();
const windowStart = t0 + opts.warmup * 1000;
const windowEnd = windowStart + opts.seconds * 1000;
let nextArrival = t0;
let served = 0, servedInWindow = 0, bytes = 0, profiling = false, profStartedAt = 0;
let stopTimeProfile = null;

// The time profiler runs from the start of the process, as a production
// agent's does; the warm-up's profile is thrown away and the window's kept.
function startProfilers() {
  if (opts.profiler === 'datadog') {
    profiler.time.start({ intervalMicros: opts.intervalUs, durationMillis: 600000,
      withContexts: true, collectCpuTime: true, lineNumbers: false });
  } else if (opts.profiler === 'pprof') {
    stopTimeProfile = profiler.time.start(opts.intervalUs, 'warmup');
  }
}

function startWindow() {
  if (opts.profiler === 'datadog') {
    profiler.time.stop(true);            // restart: the window begins here
  } else if (opts.profiler === 'pprof') {
    stopTimeProfile();                   // it runs one profile at a time
    stopTimeProfile = profiler.time.start(opts.intervalUs, 'window');
  }
  profStartedAt = now();
  profiling = true;
}

function serve() {
  const turnStart = now();
  while (nextArrival <= now()) {
    if (profiling && opts.profiler === 'datadog') {
      profiler.time.setContext({ route: served % 4 === 0 ? '/quote' : '/search' });
    }
    bytes += handleRequest(makeRequest());
    served++;
    if (profiling) servedInWindow++;
    nextArrival += -Math.log(1 - rng()) * 1000 / opts.rate;
    if (now() - turnStart > 50) break;   // let timers run
  }
  const t = now();
  if (!profiling && t >= windowStart) startWindow();
  if (profiling && t >= windowEnd) return finish();
  // Always a timer, so that every request is served from the same event-loop
  // phase (a timer of 0 ms waits for the next turn of the loop).
  const wait = Math.min(nextArrival, profiling ? windowEnd : windowStart) - t;
  setTimeout(serve, Math.max(0, wait));
}

function finish() {
  const stopAt = now();
  const cpu = process.cpuUsage();
  const facts = {
    profiler: opts.profiler, seed: opts.seed, inject: SHAPE,
    window_ms: +(stopAt - profStartedAt).toFixed(1),
    served, served_in_window: servedInWindow,
    backlog_ms: +(Math.max(0, stopAt - nextArrival)).toFixed(1),
    cpu_s: +((cpu.user + cpu.system) / 1e6).toFixed(2),
    quote_cache: quoteCache.size, audit_log: auditLog.length,
  };
  let wall = null;
  if (opts.profiler === 'datadog') wall = profiler.time.stop();
  else if (opts.profiler === 'pprof') wall = stopTimeProfile();
  // The live heap: with node --expose-gc, a full collection first, so that
  // what the sampling heap profiler still holds is what is reachable (and
  // not old-generation garbage that no major GC has swept yet).
  facts.forced_gc = typeof global.gc === 'function';
  if (facts.forced_gc) global.gc();
  facts.heap_s = +((now() - heapStartedAt) / 1000).toFixed(3);
  if (profiler) {
    fs.writeFileSync(`${opts.out}.wall.pb.gz`, profiler.encodeSync(wall));
    fs.writeFileSync(`${opts.out}.heap.pb.gz`, profiler.encodeSync(profiler.heap.profile()));
  }
  facts.heap_used_mb = +(process.memoryUsage().heapUsed / 1048576).toFixed(1);
  process.stdout.write(JSON.stringify(facts) + '\n');
}

startProfilers();
setTimeout(serve, 0);
