// The animation page (AnimationPage.h): the scene's samples as JSON in the
// page, and a script of its own that lays the scene out once (pixels per
// metre, stated on the drawing as data-px-per-m, data-origin-x and
// data-origin-y) and then sets the elements' attributes for the frame
// shown. The drawn elements name what they are (data-point="p2") so that
// a browser test can read them.
#include "driver/AnimationPage.h"

#include "driver/SvgPlot.h"
#include "support/Json.h"
#include "support/NumberText.h"

#include <cmath>

namespace mech::driver {

namespace {

// Seven significant digits: far below a pixel, and a third of the bytes
// of round-trip numbers.
void appendNumbers(std::string &json, const std::vector<double> &values) {
  json += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      json += ',';
    json += std::isfinite(values[i]) ? formatNumber(values[i], 7) : "null";
  }
  json += ']';
}

// A JSON string that is safe inside <script>: no "</script>" can end it.
std::string scriptString(const std::string &text) {
  std::string escaped = jsonEscape(text);
  std::string safe;
  for (char c : escaped)
    safe += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return safe;
}

std::string sceneJson(const Scene &scene, const AnimationOptions &options) {
  std::string json = "{\"title\":" + scriptString(options.title) +
                     ",\"dimensions\":" + std::to_string(scene.dimensions) + ",\"t\":";
  appendNumbers(json, scene.t);
  json += ",\"points\":[";
  for (size_t k = 0; k < scene.points.size(); ++k) {
    const ScenePoint &p = scene.points[k];
    json += std::string(k ? "," : "") + "{\"name\":" + scriptString(p.name) +
            ",\"kind\":" + scriptString(p.kind) + ",\"x\":";
    appendNumbers(json, p.x);
    json += ",\"y\":";
    appendNumbers(json, p.y);
    if (scene.dimensions == 3) {
      json += ",\"z\":";
      appendNumbers(json, p.z);
    }
    json += '}';
  }
  json += "],\"bodies\":[";
  for (size_t k = 0; k < scene.bodies.size(); ++k) {
    const SceneBody &b = scene.bodies[k];
    json += std::string(k ? "," : "") + "{\"point\":" + std::to_string(b.point);
    if (!b.angle.empty()) {
      json += ",\"radius\":" + formatNumber(b.radius, 7) +
              ",\"mark\":" + (b.mark ? "true" : "false") + ",\"angle\":";
      appendNumbers(json, b.angle);
    } else {
      json += ",\"axes\":";
      appendNumbers(json, {b.axes[0], b.axes[1], b.axes[2]});
      json += ",\"rotation\":";
      appendNumbers(json, b.rotation);
    }
    json += '}';
  }
  json += "],\"links\":[";
  for (size_t k = 0; k < scene.links.size(); ++k)
    json += std::string(k ? "," : "") + "[" + std::to_string(scene.links[k].from) + "," +
            std::to_string(scene.links[k].to) + "," + (scene.links[k].spring ? "1" : "0") + "]";
  json += "],\"boxes\":[";
  for (size_t k = 0; k < scene.boxes.size(); ++k) {
    const SceneBox &b = scene.boxes[k];
    json += std::string(k ? "," : "") + "{\"point\":" + std::to_string(b.point) +
            ",\"width\":" + formatNumber(b.width, 7) + ",\"height\":" + formatNumber(b.height, 7) +
            ",\"angle\":";
    appendNumbers(json, b.angle);
    json += '}';
  }
  json += "],\"guides\":[";
  for (size_t k = 0; k < scene.guides.size(); ++k) {
    const Scene::Guide &g = scene.guides[k];
    json += k ? "," : "";
    appendNumbers(json, {g.x, g.y, g.dx, g.dy});
  }
  json += "],\"grounds\":";
  appendNumbers(json, scene.grounds);
  json += ",\"traced\":[";
  for (size_t k = 0; k < options.traced.size(); ++k)
    json += std::string(k ? "," : "") + scriptString(options.traced[k]);
  json += "],\"plots\":[";
  for (size_t k = 0; k < options.plots.size(); ++k) {
    json += std::string(k ? "," : "") + "{\"name\":" + scriptString(options.plots[k].name) +
            ",\"unit\":" + scriptString(options.plots[k].unit) + ",\"values\":";
    appendNumbers(json, options.plots[k].values);
    json += '}';
  }
  json += "],\"impacts\":[";
  for (size_t k = 0; k < options.impacts.size(); ++k)
    json += std::string(k ? "," : "") + "[" + formatNumber(options.impacts[k].first, 17) + "," +
            scriptString(options.impacts[k].second) + "]";
  json +=
      "],\"view\":[" + formatNumber(options.yaw, 7) + "," + formatNumber(options.pitch, 7) + "]}";
  return json;
}

const char *const kStyle = R"CSS(
body { font-family: sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 4px 0; }
#note { color: #666; font-size: 13px; margin-bottom: 6px; }
#scene { border: 1px solid #ccc; background: #fff; touch-action: none; }
#controls { margin: 6px 0; display: flex; gap: 10px; align-items: center; width: 640px; }
#scrubber { flex: 1; }
#time { font-variant-numeric: tabular-nums; min-width: 7em; }
#plot { border: 1px solid #ccc; background: #fff; }
.link { stroke: #444; stroke-width: 2.5; stroke-linecap: round; }
.spring { stroke: #7a5; stroke-width: 1.8; fill: none; }
.point { fill: #0072B2; stroke: #fff; stroke-width: 1; }
.body { fill: #D55E00; fill-opacity: 0.25; stroke: #D55E00; stroke-width: 1.5; }
.mark { stroke: #D55E00; stroke-width: 2; }
#time.impact { color: #009E73; font-weight: bold; }
.pivot { fill: #222; }
.trail { fill: none; stroke: #009E73; stroke-width: 1.2; stroke-opacity: 0.8; }
.box { fill: #56B4E9; fill-opacity: 0.35; stroke: #0072B2; stroke-width: 1.5; }
.ground { stroke: #666; stroke-width: 2; stroke-dasharray: 8 4; }
.guide { stroke: #999; stroke-width: 1; stroke-dasharray: 4 4; }
)CSS";

// The page's script. It lays the scene out once, then draw(i) sets every
// element for sample i; play advances the time by the wall clock times the
// speed. No external resource is fetched.
const char *const kScript = R"JS(
(function () {
  const data = JSON.parse(document.getElementById('mech-data').textContent);
  const svg = document.getElementById('scene');
  const NS = 'http://www.w3.org/2000/svg';
  const W = 640, H = 480, margin = 30;
  const frames = data.t.length;
  const spatial = data.dimensions === 3;
  let yaw = data.view[0] * Math.PI / 180, pitch = data.view[1] * Math.PI / 180;
  const make = (tag, cls, parent) => {
    const e = document.createElementNS(NS, tag);
    if (cls) e.setAttribute('class', cls);
    parent.appendChild(e);
    return e;
  };
  // World to screen before scaling: the plane as it is; in 3-D a turn by
  // yaw about the vertical z, then a tilt by pitch, looked at along y.
  function project(x, y, z) {
    if (!spatial) return [x, y];
    const x1 = Math.cos(yaw) * x + Math.sin(yaw) * y;
    const y1 = -Math.sin(yaw) * x + Math.cos(yaw) * y;
    return [x1, Math.cos(pitch) * z - Math.sin(pitch) * y1];
  }
  const pointAt = (k, i) => {
    const p = data.points[k];
    return spatial ? [p.x[i], p.y[i], p.z[i]] : [p.x[i], p.y[i], 0];
  };
  // The layout: every point of every sample (and the origin when a pivot
  // is drawn) fits, in 3-D for any view (a sphere about the centre).
  const usesOrigin = data.links.some(l => l[0] < 0);
  let lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
  const extend = (x, y) => { lo = [Math.min(lo[0], x), Math.min(lo[1], y)]; hi = [Math.max(hi[0], x), Math.max(hi[1], y)]; };
  if (spatial) {
    let c = [0, 0, 0], count = 0, reach = 0;
    for (let k = 0; k < data.points.length; ++k)
      for (let i = 0; i < frames; ++i) { const p = pointAt(k, i); if (p.every(Number.isFinite)) { c = c.map((v, j) => v + p[j]); ++count; } }
    if (count) c = c.map(v => v / count);
    for (let k = 0; k < data.points.length; ++k)
      for (let i = 0; i < frames; ++i) { const p = pointAt(k, i); if (p.every(Number.isFinite)) reach = Math.max(reach, Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2])); }
    for (const b of data.bodies) reach += Math.max(...b.axes, 0) / 2;
    if (usesOrigin) reach = Math.max(reach, Math.hypot(...c));
    if (!(reach > 0)) reach = 1;
    lo = [-reach, -reach]; hi = [reach, reach];
    svg.dataset.centre = c.join(',');
    var centre = c;
  } else {
    for (let k = 0; k < data.points.length; ++k)
      for (let i = 0; i < frames; ++i) { const p = pointAt(k, i); if (Number.isFinite(p[0]) && Number.isFinite(p[1])) extend(p[0], p[1]); }
    for (const b of data.bodies) for (let i = 0; i < frames; ++i) {
      const p = pointAt(b.point, i); extend(p[0] - b.radius, p[1] - b.radius); extend(p[0] + b.radius, p[1] + b.radius); }
    for (const b of data.boxes) for (let i = 0; i < frames; ++i) {
      const p = pointAt(b.point, i), r = Math.hypot(b.width, b.height) / 2; extend(p[0] - r, p[1] - r); extend(p[0] + r, p[1] + r); }
    for (const h of data.grounds) if (Number.isFinite(lo[0])) { extend(lo[0], h); }
    if (usesOrigin || !Number.isFinite(lo[0])) extend(0, 0);
    var centre = [0, 0, 0];
  }
  const span = [Math.max(hi[0] - lo[0], 1e-9), Math.max(hi[1] - lo[1], 1e-9)];
  const scale = Math.min((W - 2 * margin) / span[0], (H - 2 * margin) / span[1]);
  const left = (W - scale * span[0]) / 2, top = (H - scale * span[1]) / 2;
  // Screen pixels of a world point: x to the right, y (or z) up.
  const toScreen = p => {
    const s = spatial ? project(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]) : [p[0], p[1]];
    return [left + (s[0] - lo[0]) * scale, top + (hi[1] - s[1]) * scale];
  };
  svg.dataset.pxPerM = scale;
  const origin = spatial ? null : toScreen([0, 0, 0]);
  if (origin) { svg.dataset.originX = origin[0]; svg.dataset.originY = origin[1]; }

  const trails = make('g', '', svg), linkLayer = make('g', '', svg), bodyLayer = make('g', '', svg), pointLayer = make('g', '', svg);
  const traced = data.traced.map(name => data.points.findIndex(p => p.name === name)).filter(k => k >= 0);
  const trailLines = traced.map(k => { const e = make('polyline', 'trail', trails); e.dataset.trace = data.points[k].name; return e; });
  const linkLines = data.links.map(l => { const e = make(l[2] ? 'polyline' : 'line', l[2] ? 'spring' : 'link', linkLayer);
    e.dataset.from = l[0] < 0 ? 'origin' : data.points[l[0]].name; e.dataset.to = data.points[l[1]].name; return e; });
  if (usesOrigin) { const pivot = make('path', 'pivot', linkLayer); pivot.dataset.point = 'origin'; var pivotMark = pivot; }
  const guideLines = data.guides.map(g => { const e = make('line', 'guide', linkLayer); return e; });
  const groundLines = data.grounds.map(h => { const e = make('line', 'ground', linkLayer); e.dataset.height = h; return e; });
  const boxShapes = data.boxes.map(b => { const e = make('polygon', 'box', bodyLayer); e.dataset.box = data.points[b.point].name; return e; });
  const bodyShapes = data.bodies.map(b => {
    const g = make('g', '', bodyLayer); g.dataset.body = data.points[b.point].name;
    return { shape: make('ellipse', 'body', g), mark: b.angle && b.mark ? make('line', 'mark', g) : null };
  });
  const dots = data.points.map(p => {
    if (p.kind === 'end') return null;
    const e = make('circle', 'point', pointLayer);
    e.dataset.point = p.name;
    e.setAttribute('r', 6);
    const title = document.createElementNS(NS, 'title'); title.textContent = p.name; e.appendChild(title);
    return e;
  });
  const set = (e, attrs) => { for (const k in attrs) e.setAttribute(k, attrs[k]); };
  function zigzag(a, b) {
    const n = 12, dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1, w = 6;
    const pts = [a];
    for (let j = 1; j < n; ++j) { const s = j / n, side = j % 2 ? w : -w;
      pts.push([a[0] + s * dx - side * dy / len, a[1] + s * dy + side * dx / len]); }
    pts.push(b);
    return pts.map(p => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' ');
  }
  // The 2x2 shape of a projected ellipsoid (columns of R are its axes in
  // the world): the screen ellipse's radii and angle.
  function projectedEllipse(b, i) {
    const R = b.rotation.slice(9 * i, 9 * i + 9);
    let a = 0, bb = 0, c = 0;
    for (let j = 0; j < 3; ++j) {
      const s = project(R[j], R[3 + j], R[6 + j]).map(v => v * b.axes[j] * scale);
      a += s[0] * s[0]; bb += s[0] * s[1]; c += s[1] * s[1];
    }
    const mean = (a + c) / 2, d = Math.sqrt(((a - c) / 2) ** 2 + bb * bb);
    return [Math.sqrt(Math.max(mean + d, 0)), Math.sqrt(Math.max(mean - d, 0)), 0.5 * Math.atan2(2 * bb, a - c)];
  }

  // The plots: one row each, the samples against t, with a cursor.
  const plotSvg = document.getElementById('plot');
  const cursors = data.plots.map((plot, j) => {
    const h = 110, y0 = j * h, finite = plot.values.filter(Number.isFinite);
    let vlo = Math.min(...finite), vhi = Math.max(...finite);
    if (!(vhi > vlo)) { vlo -= 0.5 * Math.abs(vlo || 1); vhi += 0.5 * Math.abs(vhi || 1); }
    const t0 = data.t[0], t1 = data.t[frames - 1] > t0 ? data.t[frames - 1] : t0 + 1;
    const px = t => 60 + (t - t0) / (t1 - t0) * 570, py = v => y0 + 10 + (vhi - v) / (vhi - vlo) * (h - 30);
    const line = make('polyline', '', plotSvg);
    set(line, { fill: 'none', stroke: '#0072B2', 'stroke-width': 1.5,
      points: plot.values.map((v, i) => Number.isFinite(v) ? px(data.t[i]).toFixed(1) + ',' + py(v).toFixed(1) : '').join(' ') });
    const label = make('text', '', plotSvg);
    set(label, { x: 64, y: y0 + 22, 'font-size': 12 }); label.textContent = plot.name + (plot.unit ? ' [' + plot.unit + ']' : '');
    for (const [v, y] of [[vhi, py(vhi)], [vlo, py(vlo)]]) { const e = make('text', '', plotSvg);
      set(e, { x: 56, y: y + 4, 'font-size': 11, 'text-anchor': 'end' }); e.textContent = Number(v.toPrecision(4)); }
    for (const [ti] of data.impacts) { const tick = make('line', 'impact', plotSvg);
      set(tick, { x1: px(ti), x2: px(ti), y1: y0 + h - 24, y2: y0 + h - 16, stroke: '#009E73' }); }
    const cursor = make('line', '', plotSvg);
    set(cursor, { y1: y0 + 8, y2: y0 + h - 18, stroke: '#D55E00' });
    return { cursor, px };
  });
  plotSvg.setAttribute('height', Math.max(data.plots.length * 110, 1));
  if (!data.plots.length) plotSvg.style.display = 'none';

  const scrubber = document.getElementById('scrubber'), readout = document.getElementById('time');
  scrubber.max = Math.max(frames - 1, 0);
  let shown = 0;
  function draw(i) {
    shown = i;
    scrubber.value = i;
    const hit = data.impacts.find(([ti]) => Math.abs(ti - data.t[i]) <= 1e-9 * Math.max(1, Math.abs(ti)));
    // A friction's switch is named as it is ('belt sticks'), an impact by its contacts.
    const what = hit && / (sticks|slips)$/.test(hit[1]) ? hit[1] : hit && 'impact: ' + hit[1];
    readout.textContent = 't = ' + data.t[i].toFixed(3) + ' s' + (hit ? ' · ' + what : '');
    readout.classList.toggle('impact', !!hit);
    svg.dataset.frame = i; svg.dataset.t = data.t[i];
    const at = data.points.map((p, k) => toScreen(pointAt(k, i)));
    dots.forEach((e, k) => { if (e) set(e, { cx: at[k][0].toFixed(2), cy: at[k][1].toFixed(2) }); });
    data.links.forEach((l, j) => {
      const a = l[0] < 0 ? toScreen([0, 0, 0]) : at[l[0]], b = at[l[1]];
      if (l[2]) linkLines[j].setAttribute('points', zigzag(a, b));
      else set(linkLines[j], { x1: a[0], y1: a[1], x2: b[0], y2: b[1] });
    });
    if (usesOrigin) { const o = toScreen([0, 0, 0]);
      pivotMark.setAttribute('d', `M${o[0]},${o[1]} l-7,12 h14 z`); }
    data.bodies.forEach((b, j) => {
      const c = at[b.point], s = bodyShapes[j];
      if (b.angle) {
        const r = Math.max(b.radius * scale, 4), a = b.angle[i];
        set(s.shape, { cx: c[0], cy: c[1], rx: r, ry: r });
        if (s.mark) set(s.mark, { x1: c[0], y1: c[1], x2: c[0] + r * Math.cos(a), y2: c[1] - r * Math.sin(a) });
      } else {
        const [rx, ry, angle] = projectedEllipse(b, i);
        set(s.shape, { cx: c[0], cy: c[1], rx: Math.max(rx, 3), ry: Math.max(ry, 3),
          transform: `rotate(${(-angle * 180 / Math.PI).toFixed(2)} ${c[0]} ${c[1]})` });
      }
    });
    data.boxes.forEach((b, j) => {
      const c = at[b.point], a = b.angle[i], w = b.width * scale / 2, h = b.height * scale / 2;
      const corners = [[-w, -h], [w, -h], [w, h], [-w, h]].map(([u, v]) =>
        [c[0] + u * Math.cos(a) - v * Math.sin(a), c[1] - (u * Math.sin(a) + v * Math.cos(a))]);
      boxShapes[j].setAttribute('points', corners.map(p => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' '));
    });
    data.guides.forEach((g, j) => {
      const far = 10 * Math.max(span[0], span[1]);
      const a = toScreen([g[0] - far * g[2], g[1] - far * g[3], 0]), b = toScreen([g[0] + far * g[2], g[1] + far * g[3], 0]);
      set(guideLines[j], { x1: a[0], y1: a[1], x2: b[0], y2: b[1] });
    });
    data.grounds.forEach((h, j) => { const y = toScreen([0, h, 0])[1]; set(groundLines[j], { x1: 0, x2: W, y1: y, y2: y }); });
    trailLines.forEach((e, j) => {
      const k = traced[j], pts = [];
      for (let m = 0; m <= i; ++m) { const p = toScreen(pointAt(k, m)); pts.push(p[0].toFixed(1) + ',' + p[1].toFixed(1)); }
      e.setAttribute('points', pts.join(' '));
    });
    cursors.forEach(c => set(c.cursor, { x1: c.px(data.t[i]), x2: c.px(data.t[i]) }));
  }
  // Playing: the time advances with the clock times the speed; the frame
  // shown is the last sample at or before it.
  const play = document.getElementById('play'), speed = document.getElementById('speed');
  let playing = false, clockStart = 0, tStart = 0;
  const frameAt = t => { let a = 0, b = frames - 1; while (a < b) { const m = (a + b + 1) >> 1; if (data.t[m] <= t) a = m; else b = m - 1; } return a; };
  function tick(now) {
    if (!playing) return;
    const t = tStart + (now - clockStart) / 1000 * Number(speed.value);
    const i = frameAt(t);
    draw(i);
    if (i >= frames - 1) { setPlaying(false); return; }
    requestAnimationFrame(tick);
  }
  function setPlaying(on) {
    playing = on;
    play.textContent = on ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', on);
    if (on) {
      if (shown >= frames - 1) draw(0);
      clockStart = performance.now(); tStart = data.t[shown];
      requestAnimationFrame(tick);
    }
  }
  play.addEventListener('click', () => setPlaying(!playing));
  speed.addEventListener('change', () => { if (playing) { clockStart = performance.now(); tStart = data.t[shown]; } });
  scrubber.addEventListener('input', () => { if (playing) setPlaying(false); draw(Number(scrubber.value)); });
  if (spatial) {
    let drag = null;
    svg.addEventListener('pointerdown', e => { drag = [e.clientX, e.clientY, yaw, pitch]; svg.setPointerCapture(e.pointerId); });
    svg.addEventListener('pointermove', e => {
      if (!drag) return;
      yaw = drag[2] - (e.clientX - drag[0]) * 0.01;
      pitch = Math.max(-Math.PI / 2, Math.min(Math.PI / 2, drag[3] + (e.clientY - drag[1]) * 0.01));
      svg.dataset.view = (yaw * 180 / Math.PI).toFixed(1) + ',' + (pitch * 180 / Math.PI).toFixed(1);
      draw(shown);
    });
    svg.addEventListener('pointerup', () => { drag = null; });
  }
  window.mechAnimation = { draw, frames, setPlaying, get playing() { return playing; }, get frame() { return shown; } };
  // A page opened as anim.html#t=3.2 starts at that time.
  const start = /t=([-+0-9.eE]+)/.exec(location.hash);
  if (frames) draw(start ? frameAt(Number(start[1])) : 0);
})();
)JS";

} // namespace

std::string animationPage(const Scene &scene, const AnimationOptions &options) {
  std::string title = svgText(options.title);
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<title>" + title + " \u2014 mech animate</title>\n<style>" + kStyle + "</style>\n";
  page += "</head>\n<body>\n<h1>" + title + "</h1>\n";
  page += "<div id=\"note\">" + svgText(options.note) + "</div>\n";
  page += "<svg id=\"scene\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"480\" "
          "viewBox=\"0 0 640 480\"></svg>\n";
  page += "<div id=\"controls\"><button id=\"play\" type=\"button\">Play</button>"
          "<input id=\"scrubber\" type=\"range\" min=\"0\" max=\"0\" step=\"1\" value=\"0\" "
          "aria-label=\"time\"><span id=\"time\"></span><label>speed <select id=\"speed\">"
          "<option>0.1</option><option>0.25</option><option>0.5</option>"
          "<option selected>1</option><option>2</option><option>4</option></select>"
          "</label></div>\n";
  page += "<svg id=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"110\">"
          "</svg>\n";
  page += "<script id=\"mech-data\" type=\"application/json\">" + sceneJson(scene, options) +
          "</script>\n";
  page += std::string("<script>") + kScript + "</script>\n</body>\n</html>\n";
  return page;
}

} // namespace mech::driver
