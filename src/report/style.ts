/** The report's stylesheet (inline: the page makes no requests). */
export const STYLE = `
:root { --fg: #1d2430; --muted: #6b7280; --line: #e3e6eb; --bg: #fff; --soft: #f6f7f9; --accent: #2f6fb0; }
* { box-sizing: border-box; }
body {
  margin: 0;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--fg); background: var(--bg);
}
header { background: linear-gradient(135deg, #22384f, #2f6fb0); color: #fff; padding: 22px 32px 18px; }
header h1 { margin: 0 0 4px; font-size: 24px; font-weight: 650; }
header p { margin: 2px 0; opacity: .9; }
nav {
  background: #fff; border-bottom: 1px solid var(--line); padding: 8px 32px; display: flex;
  gap: 18px; flex-wrap: wrap;
}
nav a { color: var(--accent); text-decoration: none; font-weight: 550; }
main { max-width: 1280px; margin: 0 auto; padding: 8px 32px 48px; }
section { margin: 28px 0; }
h2 { font-size: 19px; margin: 0 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 8px; }
.note, .muted { color: var(--muted); }
.lead { font-size: 15px; max-width: 70em; }
.warn { background: #fff4e5; border: 1px solid #f5c27a; padding: 8px 12px; border-radius: 6px; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th { background: var(--soft); font-weight: 600; }
td:first-child, th:first-child { text-align: left; }
tbody tr:hover { background: #f0f5fb; }
td.best { font-weight: 700; }
td.tree-link { cursor: pointer; }
td.tree-link:hover { text-decoration: underline; color: var(--accent); }
.sd, .sub { color: var(--muted); font-size: 12px; }
.sig { color: #b42318; font-weight: 600; }
.scroll { overflow-x: auto; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; margin: 6px 0 10px; }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.swatch { width: 12px; height: 12px; border-radius: 3px; display: inline-block; }
.panels { display: flex; flex-wrap: wrap; gap: 10px; }
.why-pictures { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 340px), 1fr)); gap: 12px; }
.why-pictures svg { display: block; background: #fff; border: 1px solid var(--line); border-radius: 8px; }
.panels svg { background: var(--soft); border-radius: 8px; }
.confusion h4 { margin: 6px 0 2px; font-size: 13px; }
.confusion-matrix td { min-width: 2.5em; }
svg.chart text { font-size: 12px; fill: var(--fg); }
svg.chart text.small, svg.chart .tick { font-size: 10.5px; }
svg.chart text.muted, svg.chart tspan.muted { fill: var(--muted); }
svg.chart .panel-title { font-weight: 650; font-size: 12.5px; }
svg.chart .grid { stroke: #dde1e7; stroke-width: 1; }
svg.chart .axis { stroke: #555; }
svg.chart .whisker { stroke: #222; stroke-width: 1.3; }
svg.cd-diagram { background: #fff; border: 1px solid var(--line); border-radius: 8px; max-width: 100%; height: auto; }
g.point:hover circle, g.bar:hover rect, g.cd-label:hover polyline { filter: brightness(0.85); stroke-width: 2.5; }
.tooltip {
  position: absolute; z-index: 10; pointer-events: none; background: rgba(20, 27, 38, .94);
  color: #fff; padding: 6px 9px; border-radius: 6px; font-size: 12.5px; max-width: 420px;
  display: none; box-shadow: 0 3px 12px rgba(0,0,0,.2);
}
.controls { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
select, button { font: inherit; padding: 3px 8px; border: 1px solid #c8ced6; border-radius: 6px; background: #fff; }
button { cursor: pointer; }
button:hover { background: var(--soft); }
.tree {
  font-size: 13px; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px;
  background: #fcfcfd; overflow-x: auto;
}
.tree ul { list-style: none; margin: 0; padding-left: 22px; border-left: 1px dashed #d0d5dc; }
.tree > ul { padding-left: 0; border-left: none; }
.tree li { margin: 1px 0; }
.node {
  display: inline-flex; align-items: center; gap: 8px; padding: 2px 6px; border-radius: 5px;
  cursor: default; white-space: nowrap;
}
.node.inner { cursor: pointer; }
.node.inner:hover, .node:focus { background: #e8f0fa; outline: none; }
.toggle { width: 12px; color: var(--accent); font-size: 11px; display: inline-block; text-align: center; }
.cond { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.dist { display: inline-flex; width: 90px; height: 10px; border-radius: 3px; overflow: hidden; background: #eee; }
.dist span { display: block; height: 100%; }
.leaf-class { font-weight: 600; }
.split-on { color: var(--muted); }
.stats-line { margin: 4px 0 8px; color: var(--muted); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
details > summary { cursor: pointer; color: var(--accent); font-weight: 550; margin: 6px 0; }
footer { color: var(--muted); font-size: 12.5px; border-top: 1px solid var(--line); padding-top: 12px; }
`;
