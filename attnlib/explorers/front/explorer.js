// The explorers, drawn in the page: anywidget's module for attnlib.explorers.page.
//
// The kernel sends the numbers once (X and the weights at their widest, see
// attnlib/explorers/page.py); every move of n, d_k, d_v, d, heads or the mask is
// computed and drawn here, in the frame of the keypress, and the kernel is told
// afterwards. The arithmetic mirrors attnlib.maths.core line for line, with the same
// letters, and is held equal to it in Chromium (tests/browser/test_page_explorer.py).
// A seed is the one move that needs the kernel: it sends the new seed's numbers.
//
// Everything a learner reads is sent by the kernel in their language (`text`), as
// templates with the placeholders of attnlib's tr(): {n}, {root:.2f}, {limit:g}.

// --------------------------------------------------------------------------- maths

// (rows, inner) @ (inner, cols) -> (rows, cols); A and B row-major, B's rows `stride` long
// (the first `cols` columns of a wider matrix: the page holds W at its widest)
export function matmul(A, B, rows, inner, cols, stride = cols) {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      let s = 0;
      for (let m = 0; m < inner; m++) s += A[r * inner + m] * B[m * stride + c];
      out[r * cols + c] = s;
    }
  return out;
}

// The causal mask of attnlib.causal_mask: (n, n), true = query i may attend to key j
export function causalMask(n) {
  const mask = new Uint8Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) mask[i * n + j] = 1;
  return mask;
}

// attnlib.softmax along rows: subtract the row maximum, exp, divide by the row sum
export function softmax(scores, n_q, n_kv) {
  const weights = new Float64Array(n_q * n_kv);
  for (let i = 0; i < n_q; i++) {
    let top = -Infinity;
    for (let j = 0; j < n_kv; j++) top = Math.max(top, scores[i * n_kv + j]);
    let sum = 0;
    for (let j = 0; j < n_kv; j++) {
      const e = Math.exp(scores[i * n_kv + j] - top); // exp(-inf) = 0 for a masked key
      weights[i * n_kv + j] = e;
      sum += e;
    }
    for (let j = 0; j < n_kv; j++) weights[i * n_kv + j] /= sum;
  }
  return weights;
}

// One head of self-attention on the first n tokens, d_k and d_v columns wide:
// attnlib.self_attention(X[:n], W_Q[:, :d_k], W_K[:, :d_k], W_V[:, :d_v], mask=mask)
export function selfAttention(data, h, n, d_k, d_v, { scaled = true, mask = null } = {}) {
  const { X, d, width } = data;
  const W_Q = data.W_Q.subarray(h * d * width, (h + 1) * d * width);
  const W_K = data.W_K.subarray(h * d * width, (h + 1) * d * width);
  const W_V = data.W_V.subarray(h * d * width, (h + 1) * d * width);
  const Q = matmul(X, W_Q, n, d, d_k, width); // (n, d) @ (d, d_k) -> (n, d_k)
  const K = matmul(X, W_K, n, d, d_k, width); // (n, d) @ (d, d_k) -> (n, d_k)
  const V = matmul(X, W_V, n, d, d_v, width); // (n, d) @ (d, d_v) -> (n, d_v)
  const scores = new Float64Array(n * n); // (n, d_k) @ (d_k, n) -> (n, n)
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let c = 0; c < d_k; c++) s += Q[i * d_k + c] * K[j * d_k + c];
      scores[i * n + j] = s;
    }
  if (scaled) {
    const root = Math.sqrt(d_k);
    for (let k = 0; k < n * n; k++) scores[k] /= root;
  }
  if (mask) for (let k = 0; k < n * n; k++) if (!mask[k]) scores[k] = -Infinity;
  const weights = softmax(scores, n, n); // (n, n), rows sum to 1
  const Z = matmul(weights, V, n, n, d_v); // (n, n) @ (n, d_v) -> (n, d_v)
  return { Q, K, V, scores, weights, Z, n, d_k, d_v, scaled, mask };
}

// attnlib.stats.row_entropy: -Σ_j α_ij log α_ij, 0 log 0 taken as 0; (n, n) -> (n,)
export function rowEntropy(weights, n) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) {
      const w = weights[i * n + j];
      if (w > 0) s += w * Math.log(w);
    }
    out[i] = 0.0 - s;
  }
  return out;
}

// attnlib.stats.max_weight: the largest weight of each row; (n, n) -> (n,)
export function maxWeight(weights, n) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let top = -Infinity;
    for (let j = 0; j < n; j++) top = Math.max(top, weights[i * n + j]);
    out[i] = top;
  }
  return out;
}

const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
const variance = (a) => { const m = mean(a); return mean(a.map((x) => (x - m) ** 2)); };
const median = (a) => {
  const s = Array.from(a).sort((x, y) => x - y), k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
};

// attnlib.pictures.heatmap.symmetric_limit: the smallest nice number >= max |entry|
const STEPS = [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0];
export function symmetricLimit(values) {
  let top = 0;
  for (const v of values) if (Number.isFinite(v)) top = Math.max(top, Math.abs(v));
  if (!(top > 0)) return 1.0;
  const power = 10.0 ** Math.floor(Math.log10(top));
  for (const step of STEPS) if (step * power >= top) return step * power;
  return 10.0 * power;
}

// matplotlib's Colormap(Normalize(low, high)(v), bytes=True): index into the 256-entry table
export function colourIndex(v, low, high, N = 256) {
  let x = ((v - low) / (high - low)) * N;
  if (x === N) x = N - 1; // the top of the range is the last colour, not "over"
  if (x < 0) return 0; // "under": the first colour (matplotlib's default)
  if (x >= N) return N - 1; // "over": the last
  return Math.trunc(x);
}

// --------------------------------------------------------------------------- text

// Python's str.format for the placeholders attnlib's templates use: {name}, {name:.2f}, {name:g}
export function format(template, values) {
  return template.replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name, spec) => {
    if (!(name in values)) return whole;
    const v = values[name];
    if (spec === undefined || spec === "") return String(v);
    const fixed = /^\.(\d+)f$/.exec(spec);
    if (fixed) return fixedText(v, +fixed[1]);
    if (spec === "g") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
    return String(v);
  });
}

// Python's f"{v:.{digits}f}": the nearest, and an exact tie to even, where toFixed rounds a
// tie up (1/8 = 0.125: Python "0.12", toFixed "0.13"). toFixed(100) writes the double exactly.
export function fixedText(v, digits) {
  if (!Number.isFinite(v)) return v === -Infinity ? "-inf" : v > 0 ? "inf" : "nan";
  const exact = Math.abs(v).toFixed(100), cut = exact.indexOf(".") + 1 + digits;
  const kept = exact.slice(0, digits ? cut : cut - 1);
  if (!/^50*$/.test(exact.slice(cut)) || Number(kept.at(-1)) % 2) return v.toFixed(digits);
  return (v < 0 ? "-" : "") + kept; // a tie, and the digit kept is even: cut, as Python does
}

// attnlib.pictures.heatmap.format_value: at most 5 characters, a true minus
export function formatValue(value) {
  const size = Math.abs(value);
  const text = fixedText(value, size < 9.995 ? 2 : size < 99.95 ? 1 : 0);
  return text.replace("-", "\u2212");
}

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const shape = (...sizes) => `(${sizes.join(", ")})`;
const numbers = (a) => Array.from(a, (v) => fixedText(v, 2)).join(" ");

// --------------------------------------------------------------------------- what is shown

// Each family: its panels for the current controls, the readout under them, and the
// breakdown of a selected cell's summary line. A panel is attnlib's Panel with its fields'
// names in camelCase (attnlib.explorers.page.panel_for_page: matrix, title, rowLabels,
// colLabels, xlabel, ylabel, kind, diagonal, values, minValueCell, limit, colorbar,
// shareLimit, selectable, mask; a field left out has Panel's default), the matrix flat with
// its rows and cols, and the index of the pass whose numbers a click explains (pass).
export const FAMILIES = {
  attention(state) {
    const { n, d_k, heads, mask: maskName } = state.controls;
    const mask = maskName === "causal" ? causalMask(n) : null;
    const passes = [];
    for (let h = 0; h < heads; h++) passes.push(selfAttention(state.data, h, n, d_k, d_k, { mask }));
    const t = state.t, labels = queryKey(state, n);
    const size = `(${n} × ${n})`;
    let panels;
    if (heads === 1) {
      const att = passes[0];
      panels = [
        { ...labels, matrix: att.scores, rows: n, cols: n, kind: "diverging", pass: 0,
          title: `${t("scores q·k / √d_k")}${mask ? t(", masked −∞") : ""}  ${size}` },
        { ...labels, matrix: att.weights, rows: n, cols: n, kind: "weights", pass: 0,
          title: format(t("weights α = softmax(scores){masked}  {shape}"),
                        { masked: mask ? t(", masked 0") : "", shape: size }) },
      ];
    } else {
      const [, cols] = gridShape(heads);
      const grid = heads > MAX_ONE_ROW;
      panels = passes.map((att, h) => ({
        ...labels, matrix: att.weights, rows: n, cols: n, kind: "weights", pass: h,
        title: format(t("head {h}: α{masked}  ({n} × {n})"),
                      { h, masked: mask ? t(", masked 0") : "", n }),
        ...(grid ? {
          ylabel: h % cols === 0 ? labels.ylabel : "",
          xlabel: h + cols >= heads ? labels.xlabel : "",
          colorbar: h % cols === cols - 1 || h === heads - 1,
        } : {}),
      }));
    }
    for (const p of panels) Object.assign(p, { mask, selectable: true, diagonal: true });
    const readout = (heads === 1 ? attentionReadout(t, passes[0]) : headsReadout(t, passes, state))
        + maskReadout(t, mask, n);
    return { panels, passes, readout, heads };
  },

  scaling(state) {
    const { d_k } = state.controls, { n } = state.fixed;
    const t = state.t, labels = queryKey(state, n);
    const unscaled = selfAttention(state.data, 0, n, d_k, 1, { scaled: false });
    const scaled = selfAttention(state.data, 0, n, d_k, 1, { scaled: true });
    const size = `(${n} × ${n})`;
    const panels = [
      { ...labels, matrix: unscaled.weights, rows: n, cols: n, kind: "weights", pass: 0,
        colorbar: false, selectable: true,
        title: format(t("weights, unscaled: softmax(q·k)  {shape}"), { shape: size }) },
      { ...labels, ylabel: "", matrix: scaled.weights, rows: n, cols: n, kind: "weights",
        pass: 1, selectable: true,
        title: format(t("weights, scaled: softmax(q·k / √d_k)  {shape}"), { shape: size }) },
    ];
    return { panels, passes: [unscaled, scaled], readout: scalingReadout(t, unscaled, scaled),
             prefixes: [t("unscaled"), t("scaled by √d_k")] };
  },

  qkv(state) {
    const { d_k, d_v } = state.controls, { n } = state.fixed;
    const t = state.t, tokens = state.tokens.slice(0, n);
    const att = selfAttention(state.data, 0, n, d_k, d_v);
    const panels = [["Q", att.Q, d_k, "d_k"], ["K", att.K, d_k, "d_k"], ["V", att.V, d_v, "d_v"]]
      .map(([name, M, cols, width]) => ({
        matrix: M, rows: n, cols, kind: "diverging", shareLimit: true, rowLabels: tokens,
        title: `${name} = X W_${name}  (${n} × ${cols})`,
        xlabel: format(t("coordinate ({width} = {cols})"), { width, cols }),
        ylabel: name === "Q" ? t("token") : "", colorbar: name === "V",
      }));
    return { panels, passes: [att], readout: qkvReadout(t, state, att) };
  },

  embedding(state) {
    const { n, d } = state.controls;
    const t = state.t, tokens = state.tokens.slice(0, n);
    const { X, d: width } = state.data;
    const M = new Float64Array(n * d); // the first n rows and d columns of the widest X
    for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) M[i * d + c] = X[i * width + c];
    const panels = [{ matrix: M, rows: n, cols: d, kind: "diverging", rowLabels: tokens,
                      title: `X  (n × d = ${n} × ${d})`, xlabel: t("coordinate"),
                      ylabel: t("token") }];
    return { panels, passes: [], readout: embeddingReadout(t, tokens, n, d) };
  },
};

// A family whose pictures the kernel computed, one per position of its controls (the
// learned explorer: a view per checkpoint and example, small enough to send at once)
FAMILIES.views = (state) => {
  const { step, example } = state.controls;
  const v = state.views[state.steps.indexOf(step)][example];
  let readout = v.readout;
  if (state.note) readout += "<br>" + state.note;
  return { panels: v.panels, passes: v.passes, readout };
};

// The kernel's view as the page draws it: flat Float64Arrays, −∞ where JSON has null
function unpackView(v) {
  const flat = (rows) => Float64Array.from(rows.flat(), (x) => (x === null ? -Infinity : x));
  return {
    readout: v.readout,
    match: v.match,
    passes: v.passes.map((a) => ({ Q: flat(a.Q), K: flat(a.K), scores: flat(a.scores),
                                   weights: flat(a.weights), n: a.weights.length,
                                   d_k: a.Q[0].length })),
    panels: v.panels.map((p) => ({ ...p, matrix: flat(p.matrix), rows: p.matrix.length,
                                   cols: p.matrix[0].length,
                                   mask: p.mask ? Uint8Array.from(p.mask.flat(), Number) : null })),
  };
}

const MAX_ONE_ROW = 3, MAX_COLUMNS = 4, MAX_VALUES_N = 8;

// attnlib.pictures.layout.grid_shape: rows and columns of the grid of `count` panels
export function gridShape(count) {
  if (count <= MAX_ONE_ROW) return [1, count];
  const rows = Math.max(2, Math.ceil(count / MAX_COLUMNS));
  return [rows, Math.ceil(count / rows)];
}

function queryKey(state, n) {
  const tokens = state.tokens.slice(0, n);
  return { rowLabels: tokens, colLabels: tokens, xlabel: state.t("key j"),
           ylabel: state.t("query i") };
}

// ---- readouts: attnlib.explorers.readouts, sentence for sentence

const LIST_ROWS = 12;

function attentionReadout(t, att) {
  const { n, d_k, d_v } = att;
  const entropy = rowEntropy(att.weights, n);
  const scaling = format(t("scores = q·k / √d_k, √{d_k} = {root:.2f}"),
                         { d_k, root: Math.sqrt(d_k) });
  const shapes = format(t("Q {Q} · K {K} · V {V} · scores and weights {weights} · {scaling}"),
                        { Q: shape(n, d_k), K: shape(n, d_k), V: shape(n, d_v),
                          weights: shape(n, n), scaling });
  const top = maxWeight(att.weights, n);
  const largest = n <= LIST_ROWS
    ? format(t("largest weight in each row: <code>{numbers}</code>"), { numbers: numbers(top) })
    : format(t("largest weight in each row: from <code>{low:.2f}</code> to <code>{high:.2f}</code>"
               + " (median {median:.2f} over {n} rows)"),
             { low: Math.min(...top), high: Math.max(...top), median: median(top), n });
  const spread = format(t("mean row entropy: {entropy:.2f} nats "
                          + "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})"),
                        { entropy: mean(entropy), ln_n: Math.log(n), n });
  return `${shapes}<br>${largest}<br>${spread}`;
}

function headsReadout(t, passes, state) {
  const heads = passes.length, first = passes[0], { n, d_k, d_v } = first;
  const scaling = format(t("each head divides by √d_k = √{d_k} = {root:.2f}, its own width"),
                         { d_k, root: Math.sqrt(d_k) });
  const entropies = passes.map((att) => mean(rowEntropy(att.weights, n)));
  const perHead = format(t("heads = {heads}: per head Q, K {QK}, V {V}, weights {weights} · {scaling}"),
                         { heads, QK: shape(n, d_k), V: shape(n, d_v), weights: shape(n, n), scaling });
  const joined = format(t("Z = the heads side by side {Z} = (n, heads·d_v = {heads}·{d_v}) · output Z W_O {output}"),
                        { Z: shape(n, heads * d_v), heads, d_v, output: shape(n, state.data.d) });
  const spread = format(t("mean row entropy per head: <code>{numbers}</code> nats "
                          + "(0 = all weight on one key, {ln_n:.2f} = spread evenly over {n})"),
                        { numbers: numbers(entropies), ln_n: Math.log(n), n });
  return `${perHead}<br>${joined}<br>${spread}`;
}

function maskReadout(t, mask, n) {
  if (!mask) return "";
  let blocked = 0;
  for (const m of mask) blocked += m ? 0 : 1;
  return "<br>" + format(t("mask: {blocked} of {size} scores blocked (grey): −∞ before the softmax, "
                           + "weight 0 after it; each row's remaining weights still sum to 1"),
                         { blocked, size: n * n });
}

function scalingReadout(t, unscaled, scaled) {
  const { n, d_k } = scaled;
  const rows = [
    [t("score variance"), variance(unscaled.scores), variance(scaled.scores)],
    [t("mean max weight"), mean(maxWeight(unscaled.weights, n)), mean(maxWeight(scaled.weights, n))],
    [t("mean row entropy (nats)"), mean(rowEntropy(unscaled.weights, n)),
     mean(rowEntropy(scaled.weights, n))],
  ];
  const body = rows.map(([name, a, b]) =>
    `<tr><td>${name}</td><td>${fixedText(a, 2)}</td><td>${fixedText(b, 2)}</td></tr>`).join("");
  const saturated = format(t("A saturated softmax has max weight near 1 and entropy near 0; "
                             + "an even one 1/{n} = {even:.2f} and log {n} = {ln_n:.2f}."),
                           { n, even: 1 / n, ln_n: Math.log(n) });
  return `<table><tr><th>d_k = ${d_k}</th><th>${t("unscaled")}</th>`
    + `<th>${format(t("scaled by √d_k = {root:.2f}"), { root: Math.sqrt(d_k) })}</th>`
    + `</tr>${body}</table>${saturated}`;
}

function qkvReadout(t, state, att) {
  const { n, d_k, d_v } = att, d = state.data.d;
  const lines = [["Q", d_k], ["K", d_k], ["V", d_v]].map(([name, cols]) =>
    `${name} = X W_${name}: ${shape(n, d)} @ ${shape(d, cols)} -> ${shape(n, cols)}`);
  const share = format(t("Q and K share d_k = {d_k} (each score is q_i · k_j); V has d_v = {d_v}, free to differ"),
                       { d_k, d_v });
  return lines.join(" · ") + "<br>" + share;
}

function embeddingReadout(t, tokens, n, d) {
  const repeats = [...new Set(tokens.filter((w) => tokens.indexOf(w) !== tokens.lastIndexOf(w)))]
    .sort();
  const same = repeats.length
    ? format(t("; a repeated token gets the same row: {words}"), { words: repeats.join(", ") }) : "";
  return format(t("X {shape}: n = {n} tokens, one row of d = {d} numbers each{same}"),
                { shape: shape(n, d), n, d, same });
}

// The selected cell's one-line summary: attnlib.explorers.readouts.summary_html
function summary(t, shown, i, j, panel) {
  const p = shown.panels[panel], att = shown.passes[p.pass];
  const queries = p.rowLabels, keys = p.colLabels || queries;
  let where = format(t("query {i} {query} → key {j} {key}"), { i, query: queries[i], j, key: keys[j] });
  if (shown.heads > 1) where = format(t("head {h} of {heads}"), { h: panel, heads: shown.heads }) + " · " + where;
  if (shown.prefixes) where = `${shown.prefixes[panel]} · ${where}`;
  const score = att.scores[i * att.n + j];
  let text;
  if (score === -Infinity) text = t("masked: score −∞, weight 0");
  else {
    const products = [];
    for (let c = 0; c < att.d_k; c++) products.push(att.Q[i * att.d_k + c] * att.K[j * att.d_k + c]);
    const dot = products.reduce((s, x) => s + x, 0);
    const order = products.map((p, c) => c).sort((a, b) => Math.abs(products[b]) - Math.abs(products[a]) || a - b);
    const terms = order.slice(0, 2).map((c) => `c = ${c} (${fixedText(products[c], 2)})`).join(", ");
    text = format(t("score {score:.2f}, weight α = {weight:.2f}; q·k = {dot:.2f}, "
                    + "mostly from {terms} of its {d_k} products"),
                  { score, weight: att.weights[i * att.n + j], dot, terms, d_k: att.d_k });
  }
  return { html: `<div class="attnlib-summary"><b>${escape(where)}</b>: ${text}</div>`,
           plain: `${where}: ${text.replace(/<[^>]+>/g, "")}`, score,
           weight: att.weights[i * att.n + j] };
}

// --------------------------------------------------------------------------- drawing

const SIZES = {
  normal: { font: 13, box: 300, width: 920, height: 560 },
  large: { font: 22, box: 560, width: 1840, height: 880 },
};
const MASKED = "#d9d9d9", SELECTED = "#ff7f0e", DIAGONAL = "rgba(0, 0, 0, 0.55)";
const WEIGHT_TICKS = [0, 0.25, 0.5, 0.75, 1];
const SMALL_BOX = 0.7;
const TELL_MS = 150; // the kernel is told of a move when the controls have rested this long

// Where every panel goes: fixed for a family, a count of panels and a size (n and d_k
// move inside a panel's box, so a move never resizes the canvas).
function layout(ctx, family, panels, size, font, maxLabel) {
  const S = SIZES[size];
  const count = panels.length;
  const [gridRows, gridCols] = gridShape(count);
  const small = count > MAX_ONE_ROW;
  const label = Math.round(font * (small ? 0.8 : 0.9));
  const left = Math.min(maxLabel(label), font * 7) + 1.6 * font + 6; // tokens + axis name
  const bar = 12 + 6 + 3.2 * label; // colour bar, gap, tick text
  const title = Math.round(1.8 * font);
  const bottom = Math.min(maxLabel(label), font * 7) + 1.6 * font + 6; // rotated labels + name
  const gap = font;
  let box = small ? S.box * SMALL_BOX : S.box;
  const across = (box) => gridCols * (left + box + bar + gap);
  const down = (box) => gridRows * (title + box + bottom);
  while (box > 40 && (across(box) > S.width || down(box) > S.height)) box -= 2;
  const boxes = panels.map((p, k) => {
    const row = Math.floor(k / gridCols), col = k % gridCols;
    const x = col * (left + box + bar + gap) + left, y = row * (title + box + bottom) + title;
    return { x, y, box };
  });
  return { boxes, width: Math.ceil(across(box)), height: Math.ceil(down(box)), label, title,
           small, font, left, slot: left + box + bar, key: `${family}:${count}:${size}` };
}

// A panel's cells inside its box: square cells, as large as the box allows, top-left
function cells(panel, b) {
  const cell = Math.min(b.box / panel.cols, b.box / panel.rows);
  return { cell, x: b.x, y: b.y, w: cell * panel.cols, h: cell * panel.rows };
}

// The numbers of a panel's cells that are shown (a masked cell counts for no limit)
const shownValues = (p) => (p.mask ? p.matrix.filter((_, k) => p.mask[k]) : p.matrix);

// attnlib.pictures.panel.KINDS: each kind's colour map and colour limits
const CMAPS = { diverging: "RdBu_r", weights: "viridis", sequential: "viridis" };
function limits(panel, shared) {
  if (panel.kind === "weights") return [0, 1];
  if (panel.kind === "sequential") { // the data's minimum and maximum
    const finite = Array.from(shownValues(panel)).filter(Number.isFinite);
    if (!finite.length) return [-0.5, 0.5];
    const low = Math.min(...finite), high = Math.max(...finite);
    return high > low ? [low, high] : [low - 0.5, high + 0.5];
  }
  const top = panel.limit ?? (panel.shareLimit ? shared : symmetricLimit(shownValues(panel)));
  return [-top, top];
}

function drawPanels(ctx, lay, panels, state, selection) {
  const { cmaps, font } = state;
  ctx.clearRect(0, 0, lay.width, lay.height);
  lay.titles = [];
  drawnTexts = new Set();
  const shared = symmetricLimit(panels.filter((p) => p.shareLimit).flatMap((p) => Array.from(shownValues(p))));
  const family = getComputedStyle(ctx.canvas).fontFamily || "sans-serif";
  panels.forEach((p, k) => {
    const b = lay.boxes[k], g = cells(p, b);
    const [low, high] = limits(p, shared);
    const lut = cmaps[CMAPS[p.kind ?? "diverging"]];
    const img = ctx.createImageData(p.cols, p.rows);
    for (let i = 0; i < p.rows; i++)
      for (let j = 0; j < p.cols; j++) {
        const o = 4 * (i * p.cols + j), v = p.matrix[i * p.cols + j];
        const blocked = p.mask && !p.mask[i * p.cols + j];
        const c = blocked ? [217, 217, 217, 255] : lut.slice(4 * colourIndex(v, low, high), 4 * colourIndex(v, low, high) + 4);
        img.data.set(c, o);
      }
    // one pixel per cell, scaled up without smoothing: every cell one flat colour
    state.scratch.width = p.cols; state.scratch.height = p.rows;
    state.scratch.getContext("2d").putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(state.scratch, g.x, g.y, g.w, g.h);
    if (p.mask) hatch(ctx, p, g);
    if (p.diagonal) {
      ctx.strokeStyle = DIAGONAL; ctx.lineWidth = 1;
      for (let i = 0; i < Math.min(p.rows, p.cols); i++)
        ctx.strokeRect(g.x + i * g.cell + 1, g.y + i * g.cell + 1, g.cell - 2, g.cell - 2);
    }
    if (p.values ?? (p.rows <= MAX_VALUES_N && p.cols <= MAX_VALUES_N)) values(ctx, p, g, lut, low, high, lay, family);
    ctx.strokeStyle = "#444"; ctx.lineWidth = 1; ctx.strokeRect(g.x + 0.5, g.y + 0.5, g.w - 1, g.h - 1);
    labels(ctx, p, g, b, lay, family);
    if (p.colorbar !== false) colourBar(ctx, p, g, b, lut, low, high, lay, family);
    if (selection && selection.panels.includes(k)) outline(ctx, g, selection.i, selection.j);
  });
}

function hatch(ctx, p, g) {
  ctx.save();
  ctx.strokeStyle = "rgba(110, 110, 110, 0.6)"; ctx.lineWidth = 1;
  for (let i = 0; i < p.rows; i++)
    for (let j = 0; j < p.cols; j++) {
      if (p.mask[i * p.cols + j]) continue;
      const x = g.x + j * g.cell, y = g.y + i * g.cell;
      ctx.beginPath(); ctx.rect(x, y, g.cell, g.cell); ctx.clip();
      ctx.beginPath();
      const step = Math.max(4, g.cell / 4); // lines between the centre and the corners
      for (let s = -g.cell + step / 2; s < g.cell; s += step) {
        ctx.moveTo(x + s, y + g.cell); ctx.lineTo(x + s + g.cell, y);
      }
      ctx.stroke();
      ctx.restore(); ctx.save();
      ctx.strokeStyle = "rgba(110, 110, 110, 0.6)"; ctx.lineWidth = 1;
    }
  ctx.restore();
}

// Black on a light cell, white on a dark one (Rec. 709 luminance, as attnlib's heatmap),
// in the largest font up to the labels' at which every value fits its cell; none below 9 px
function values(ctx, p, g, lut, low, high, lay, family) {
  const texts = Array.from(p.matrix, formatValue);
  let size = lay.label;
  for (; size >= 9; size -= 1) {
    ctx.font = `${size}px ${family}`;
    const widest = Math.max(...texts.map((s) => ctx.measureText(s).width));
    if (widest <= g.cell - 4 && size <= g.cell - 4) break;
  }
  if (size < 9) return;
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (let i = 0; i < p.rows; i++)
    for (let j = 0; j < p.cols; j++) {
      if (p.mask && !p.mask[i * p.cols + j]) continue;
      const v = p.matrix[i * p.cols + j], k = 4 * colourIndex(v, low, high);
      const luma = (0.2126 * lut[k] + 0.7152 * lut[k + 1] + 0.0722 * lut[k + 2]) / 255;
      ctx.fillStyle = luma <= 0.45 ? "#fff" : "#000";
      fill(ctx, formatValue(v), g.x + (j + 0.5) * g.cell, g.y + (i + 0.5) * g.cell);
    }
}

function labels(ctx, p, g, b, lay, family) {
  ctx.fillStyle = "#000";
  ctx.font = `${lay.font}px ${family}`; ctx.textAlign = "left"; ctx.textBaseline = "alphabetic";
  // the title may span the panel's whole slot (labels, box and colour bar), never the next one's
  const slot = lay.slot, x0 = Math.max(b.x - lay.left + 2, b.x + b.box / 2 - slot / 2);
  ctx.save(); ctx.textAlign = "center";
  lay.titles.push(fitText(ctx, p.title, b.x + b.box / 2, b.y - 0.5 * lay.font, Math.min(slot - 4, 2 * (b.x + b.box / 2 - x0)), lay.font, family));
  ctx.restore();
  ctx.font = `${lay.label}px ${family}`;
  const every = Math.max(1, Math.ceil((1.15 * lay.label) / g.cell)); // no overlapping labels
  ctx.textAlign = "right"; ctx.textBaseline = "middle";
  for (let i = 0; i < p.rows; i += every)
    fill(ctx, p.rowLabels ? p.rowLabels[i] : String(i), g.x - 4, g.y + (i + 0.5) * g.cell);
  const cols = p.colLabels || Array.from({ length: p.cols }, (_, c) => String(c));
  const widest = Math.max(...cols.map((s) => ctx.measureText(s).width));
  const upright = widest > g.cell - 2;
  for (let j = 0; j < p.cols; j += every) {
    const x = g.x + (j + 0.5) * g.cell, y = g.y + g.h + 4;
    if (upright) {
      ctx.save(); ctx.translate(x, y); ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "right"; ctx.textBaseline = "middle"; fill(ctx, cols[j], 0, 0); ctx.restore();
    } else {
      ctx.textAlign = "center"; ctx.textBaseline = "top"; fill(ctx, cols[j], x, y);
    }
  }
  const widestRow = Math.max(...(p.rowLabels || ["00"]).map((s) => ctx.measureText(s).width));
  ctx.font = `${lay.font * (lay.small ? 0.85 : 1)}px ${family}`;
  if (p.xlabel) {
    ctx.textAlign = "center"; ctx.textBaseline = "bottom";
    fill(ctx, p.xlabel, g.x + g.w / 2, b.y + b.box + (upright ? widest : lay.label) + 1.6 * lay.font + 4);
  }
  if (p.ylabel) {
    ctx.save(); ctx.translate(g.x - widestRow - 8, g.y + g.h / 2);
    ctx.rotate(-Math.PI / 2); ctx.textAlign = "center"; ctx.textBaseline = "bottom";
    fill(ctx, p.ylabel, 0, 0); ctx.restore();
  }
}

// Every text drawn on the canvas goes through here: the strings of the last draw are
// kept, so that the picture's element can say which characters the page's fonts drew
let drawnTexts = new Set();
function fill(ctx, text, x, y) {
  drawnTexts.add(text);
  ctx.fillText(text, x, y);
}

// A title that fits its width: a smaller font first, then an ellipsis (never overlapping)
function fitText(ctx, text, x, y, width, font, family) {
  let size = font;
  while (size > 0.7 * font && ctx.measureText(text).width > width) {
    size -= 1; ctx.font = `${size}px ${family}`;
  }
  let shown = text;
  while (shown.length > 1 && ctx.measureText(shown).width > width) shown = shown.slice(0, -2) + "…";
  fill(ctx, shown, x, y);
  const w = ctx.measureText(shown).width; // where it went (centred on x): for the layout checks
  return { left: x - w / 2, right: x + w / 2, y, text: shown };
}

function colourBar(ctx, p, g, b, lut, low, high, lay, family) {
  const x = g.x + g.w + 8, h = g.h, steps = 128;
  for (let s = 0; s < steps; s++) {
    const v = high - ((s + 0.5) / steps) * (high - low), k = 4 * colourIndex(v, low, high);
    ctx.fillStyle = `rgb(${lut[k]}, ${lut[k + 1]}, ${lut[k + 2]})`;
    ctx.fillRect(x, g.y + (s * h) / steps, 12, h / steps + 0.5);
  }
  ctx.strokeStyle = "#444"; ctx.strokeRect(x + 0.5, g.y + 0.5, 11, h - 1);
  const ticks = p.kind === "weights" ? WEIGHT_TICKS : [0, 1, 2, 3, 4].map((k) => low + (k / 4) * (high - low));
  ctx.fillStyle = "#000"; ctx.font = `${lay.label}px ${family}`;
  ctx.textAlign = "left"; ctx.textBaseline = "middle";
  for (const v of ticks) {
    const y = g.y + ((high - v) / (high - low)) * h;
    ctx.fillRect(x + 12, y - 0.5, 3, 1);
    fill(ctx, p.kind === "weights" ? String(v) : formatValue(v), x + 17, y);
  }
}

// The selected cell: orange on a white halo, so that it shows on every colour
function outline(ctx, g, i, j) {
  const x = g.x + j * g.cell, y = g.y + i * g.cell;
  ctx.strokeStyle = "#fff"; ctx.lineWidth = 5; ctx.strokeRect(x, y, g.cell, g.cell);
  ctx.strokeStyle = SELECTED; ctx.lineWidth = 3; ctx.strokeRect(x, y, g.cell, g.cell);
}

// --------------------------------------------------------------------------- the widget

const floats = (view) => {
  // a DataView of little-endian float64s, copied so that it is aligned
  if (!view) return new Float64Array(0);
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
  return new Float64Array(bytes.buffer);
};
const bytesOf = (view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();

function readData(model) {
  const data = model.get("data");
  return { X: floats(data.X), W_Q: floats(data.W_Q), W_K: floats(data.W_K), W_V: floats(data.W_V),
           d: data.d, width: data.width, heads: data.heads, seed: data.seed };
}

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
}


// JupyterLab's shortcuts (ArrowDown: the next cell; ArrowRight: open a heading) match the
// focused element itself, and Lumino skips an element with this attribute and all above
// it: the keys pressed in a control or on the picture are the explorer's.
const keysAreOurs = (node) => node.setAttribute("data-lm-suppress-shortcuts", "true");

export function render({ model, el }) {
  // ids for the labels, unique in the page: anywidget may load this module once per widget,
  // so the count lives on the page, not in the module
  const id = `attnlib-${(globalThis.__attnlibExplorers = (globalThis.__attnlibExplorers || 0) + 1)}`;
  const size = model.get("size");
  const state = {
    family: model.get("family"), controls: { ...model.get("controls") }, fixed: model.get("fixed"),
    tokens: model.get("token_labels"), data: readData(model), font: SIZES[size].font,
    cmaps: Object.fromEntries(Object.entries(model.get("cmaps")).map(([k, v]) => [k, bytesOf(v)])),
    scratch: document.createElement("canvas"),
    views: (model.get("views") || []).map((row) => row.map(unpackView)),
    steps: (model.get("limits").step || {}).labels || [],
    note: "",
  };
  const text = model.get("text");
  state.t = (key) => text[key] ?? key;
  const t = state.t;

  el.classList.add("attnlib-page-explorer", "attnlib-explorer", `attnlib-${size}`);

  el.lang = model.get("language");
  // ---- controls: native inputs, each with a label (their accessible names)
  const bar = element("div", { className: "attnlib-controls" });
  const inputs = {};
  for (const [name, spec] of Object.entries(model.get("limits"))) {
    const box = element("div", { className: `attnlib-control attnlib-control-${name}` });
    const label = element("label", { htmlFor: `${id}-${name}`, textContent: spec.caption, title: spec.tooltip });
    let input;
    if (spec.choices) {
      input = element("select", { id: `${id}-${name}`, title: spec.tooltip });
      for (const [value, caption] of spec.choices) input.append(element("option", { value, textContent: caption }));
      input.value = state.controls[name];
      box.append(label, input);
    } else {
      // a control with labels (the checkpoints' steps) moves over their positions and
      // shows and announces the label, not the position
      const labels = spec.labels;
      input = element("input", { id: `${id}-${name}`, type: "range", min: spec.low, max: spec.high,
                                 step: 1, title: spec.tooltip });
      input.toValue = (position) => (labels ? labels[position] : position);
      input.toPosition = (value) => (labels ? labels.indexOf(value) : value);
      input.value = input.toPosition(state.controls[name]);
      const out = element("output", { htmlFor: `${id}-${name}`, textContent: state.controls[name] });
      input.setAttribute("aria-valuetext", String(state.controls[name]));
      box.append(label, input, out);
      input.output = out;
    }
    input.dataset.control = name;
    keysAreOurs(input);
    inputs[name] = input;
    bar.append(box);
  }
  // ---- the picture: one canvas, one focusable element that names what it shows
  const canvas = element("canvas", { className: "attnlib-canvas" });
  canvas.setAttribute("aria-hidden", "true");
  const picture = element("div", { className: "attnlib-picture", tabIndex: 0 }, canvas);
  picture.setAttribute("role", "img");
  keysAreOurs(picture);
  const hint = element("div", { className: "attnlib-hint", id: `${id}-hint`,
                                textContent: model.get("hint") });
  picture.setAttribute("aria-describedby", hint.id);
  const live = element("div", { className: "attnlib-live" });
  live.setAttribute("aria-live", "polite");
  const summaryBox = element("div", { className: "attnlib-summary-line" });
  const readout = element("div", { className: "attnlib-readout" });
  const details = element("div", { className: "attnlib-details" });
  const error = element("pre", { className: "attnlib-error" });
  error.setAttribute("role", "alert");
  el.append(bar, hint, picture, live, summaryBox, readout, details, error);

  const ctx = canvas.getContext("2d");
  let lay = null, shown = null;
  let selection = (model.get("selection") || []).length ? model.get("selection") : null;
  const selectable = () => shown.panels.map((p, k) => (p.selectable ? k : -1)).filter((k) => k >= 0);

  function maxLabel(px) {
    ctx.font = `${px}px ${getComputedStyle(canvas).fontFamily || "sans-serif"}`;
    return Math.max(...state.tokens.map((s) => ctx.measureText(s).width), ctx.measureText("00").width);
  }

  // Compute and draw: the whole of a move, in the frame of its input event
  function draw() {
    shown = FAMILIES[state.family](state);
    const key = `${state.family}:${shown.panels.length}:${size}`;
    if (!lay || lay.key !== key) { // a new layout (another number of heads): size the canvas
      lay = layout(ctx, state.family, shown.panels, size, state.font, maxLabel);
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.ceil(lay.width * ratio); canvas.height = Math.ceil(lay.height * ratio);
      canvas.style.width = `${lay.width}px`; canvas.style.height = `${lay.height}px`;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    }
    if (selection && !selectable().length) selection = null; // no panel takes a selection
    if (selection) { // clamp: n may have shrunk, a head may be gone
      const [i, j, panel] = selection;
      const keep = selectable().includes(panel) ? panel : selectable()[0];
      const p = shown.panels[keep];
      selection = [Math.min(i, p.rows - 1), Math.min(j, p.cols - 1), keep];
    }
    const outlined = selection && { i: selection[0], j: selection[1],
                                    panels: outlinedPanels(selection[2]) };
    drawPanels(ctx, lay, shown.panels, state, outlined);
    picture.dataset.boxes = JSON.stringify(lay.boxes); // where each panel is (CSS px)
    picture.dataset.shapes = JSON.stringify(shown.panels.map((p) => [p.rows, p.cols]));
    picture.dataset.titles = JSON.stringify(lay.titles);
    // the words drawn (not the numbers): the browser tests check each character has a glyph
    picture.dataset.texts = [...drawnTexts].filter((w) => /[^\d\s.,−+-]/.test(w)).join("\n");
    readout.innerHTML = shown.readout;
    describe();
    el.dataset.drawn = String(performance.now()); // for the browser tests: when the frame was drawn
  }

  // One head: the cell is outlined in that head's panels only (scores and weights of one
  // pass are one head; with heads > 1 each panel is a head of its own)
  function outlinedPanels(panel) {
    const pass = shown.panels[panel].pass;
    return shown.panels.map((p, k) => (p.selectable && (p.pass === pass) ? k : -1)).filter((k) => k >= 0);
  }

  function describe() {
    const titles = shown.panels.map((p) => p.title).join("; ");
    let said = format(t("Heatmaps: {titles}."), { titles });
    if (selection && shown.passes.length) {
      const [i, j, panel] = selection;
      const s = summary(t, shown, i, j, panel);
      summaryBox.innerHTML = s.html;
      said += " " + format(t("Selected: {what}"), { what: s.plain });
    } else summaryBox.innerHTML = "";
    picture.setAttribute("aria-label", said);
  }

  // The kernel learns of moves after they are drawn: at once for a seed (it sends the new
  // numbers), else once the controls rest for TELL_MS (a held key or a drag: one message)
  let pending = null;
  function told(now = false) {
    model.set("controls", { ...state.controls });
    clearTimeout(pending);
    if (now) model.save_changes();
    else pending = setTimeout(() => model.save_changes(), TELL_MS);
  }
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  for (const [name, input] of Object.entries(inputs)) {
    input.addEventListener("input", () => {
      const value = input.tagName === "SELECT" ? input.value : input.toValue(Number(input.value));
      if (name === "example" && state.views.length) follow(value);
      state.controls = { ...state.controls, [name]: value };
      if (input.output) { input.output.textContent = value; input.setAttribute("aria-valuetext", String(value)); }
      // a new seed, or more heads than the page holds numbers for: they come from the kernel
      if (name === "seed" || (name === "heads" && value > state.data.heads)) {
        picture.setAttribute("aria-busy", "true"); told(true); return;
      }
      draw();
      told();
    });
  }

  // A new example (learned explorer): a selection on the old matching key follows to the
  // new one; any other selected cell stays, and the readout says where the match now is
  function follow(example) {
    const before = state.controls.example;
    state.note = "";
    if (!selection || before === example) return;
    const was = state.views[0][before].match, now = state.views[0][example].match;
    if (selection[1] === was) selection = [selection[0], now, selection[2]];
    else if (selection[1] !== now)
      state.note = format(t("the selected cell kept its column j = {j}; this example's matching pair is at j = {match}"),
                          { j: selection[1], match: now });
    model.set("selection", [...selection]);
  }

  // Replay (learned explorer): step through every checkpoint in the time the kernel set
  const replay = model.get("replay");
  if (replay && inputs.step) {
    const button = element("button", { type: "button", className: "attnlib-replay",
                                       textContent: `▶ ${t("replay training")}` });
    keysAreOurs(button);
    let timer = null;
    const stop = () => { clearInterval(timer); timer = null; button.textContent = `▶ ${t("replay training")}`; button.setAttribute("aria-pressed", "false"); };
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => {
      if (timer) return stop();
      const input = inputs.step;
      if (Number(input.value) >= Number(input.max)) input.value = input.min;
      button.textContent = `■ ${t("stop")}`; button.setAttribute("aria-pressed", "true");
      timer = setInterval(() => {
        if (Number(input.value) >= Number(input.max)) return stop();
        input.value = Number(input.value) + 1;
        input.dispatchEvent(new Event("input"));
      }, replay.interval);
    });
    bar.prepend(button);
  }

  function select(cell, announce = true) {
    selection = cell;
    draw();
    model.set("selection", cell ? [...cell] : []);
    model.save_changes();
    if (announce) live.textContent = cell ? summaryBox.textContent : t("no cell selected");
  }

  canvas.addEventListener("click", (event) => {
    // in the layout's pixels: a page may draw the canvas smaller than laid out (a phone)
    const r = canvas.getBoundingClientRect(), scale = lay.width / r.width;
    const x = (event.clientX - r.left) * scale, y = (event.clientY - r.top) * scale;
    shown.panels.forEach((p, k) => {
      const g = cells(p, lay.boxes[k]);
      if (!p.selectable || x < g.x || y < g.y || x >= g.x + g.w || y >= g.y + g.h) return;
      select([Math.floor((y - g.y) / g.cell), Math.floor((x - g.x) / g.cell), k]);
    });
    picture.focus({ preventScroll: true });
  });

  // Arrow keys move the selected cell; past a panel's edge, into the next panel that way
  picture.addEventListener("keydown", (event) => {
    const keys = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "Escape"];
    if (!keys.includes(event.key) || !selectable().length) return;
    event.preventDefault(); event.stopPropagation();
    if (event.key === "Escape") return select(null);
    if (!selection) return select([0, 0, selectable()[0]]);
    let [i, j, panel] = selection;
    const p = shown.panels[panel], order = selectable(), at = order.indexOf(panel);
    const [, gridCols] = gridShape(shown.panels.length);
    if (event.key === "ArrowUp") {
      if (i > 0) i -= 1; else if (panel - gridCols >= 0 && order.includes(panel - gridCols)) { panel -= gridCols; i = p.rows - 1; }
    } else if (event.key === "ArrowDown") {
      if (i < p.rows - 1) i += 1; else if (order.includes(panel + gridCols)) { panel += gridCols; i = 0; }
    } else if (event.key === "ArrowLeft") {
      if (j > 0) j -= 1; else if (at > 0) { panel = order[at - 1]; j = shown.panels[panel].cols - 1; }
    } else if (event.key === "ArrowRight") {
      if (j < p.cols - 1) j += 1; else if (at < order.length - 1) { panel = order[at + 1]; j = 0; }
    } else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = p.cols - 1;
    select([i, j, panel]);
  });

  const onControls = () => { // from Python (e.d_k.value = 8) or our own echo
    const now = model.get("controls");
    if (same(now, state.controls)) return; // our own move, drawn already
    if (state.views.length && now.example !== undefined) follow(now.example);
    state.controls = { ...now };
    for (const [name, input] of Object.entries(inputs)) {
      const position = input.toPosition ? input.toPosition(now[name]) : now[name];
      if (String(input.value) !== String(position)) input.value = position;
      if (input.output) { input.output.textContent = now[name]; input.setAttribute("aria-valuetext", String(now[name])); }
    }
    if (state.data.seed === now.seed && !(now.heads > state.data.heads)) draw();
  };
  const onData = () => { state.data = readData(model); picture.removeAttribute("aria-busy"); draw(); };
  const onSelection = () => {
    const cell = model.get("selection");
    const now = cell && cell.length ? [...cell] : null;
    if (same(now, selection)) return;
    selection = now;
    draw();
  };
  const onDetails = () => { details.innerHTML = model.get("details"); };
  const onError = () => { error.textContent = model.get("error") || ""; };
  model.on("change:controls", onControls);
  model.on("change:data", onData);
  model.on("change:selection", onSelection);
  model.on("change:details", onDetails);
  model.on("change:error", onError);
  draw();
  onDetails();
  onError();
  return () => {
    model.off("change:controls", onControls); model.off("change:data", onData);
    model.off("change:selection", onSelection); model.off("change:details", onDetails);
    model.off("change:error", onError);
  };
}

export default { render };
