/** The explore page's styles, on top of the report's (src/report/style.ts). */
export const EXPLORE_STYLE = `
.page { display: grid; grid-template-columns: 270px minmax(0, 1fr); gap: 18px; padding: 12px 20px 40px; }
#notice, #error, #file-status { grid-column: 1 / -1; margin: 0; }
.open-file { margin: 6px 0 0; }
.open-file .target { margin-left: 10px; white-space: nowrap; }
#file-status { white-space: pre-line; }
body.dropping { outline: 3px dashed var(--accent); outline-offset: -6px; }
.error {
  background: #fdecea; border: 1px solid #e0a39c; color: #8a1c12;
  padding: 8px 12px; border-radius: 6px; white-space: pre-wrap;
}
.sidebar {
  border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; align-self: start; background: var(--soft);
}
.sidebar h2 { font-size: 16px; margin: 4px 0 8px; }
.controls-set, .group { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 4px 8px; align-items: center; }
.group { grid-column: 1 / -1; margin: 6px 0; }
.group > summary { grid-column: 1 / -1; }
.field { font-size: 12.5px; color: var(--muted); }
.sidebar input, .sidebar select { width: 100%; min-width: 0; font: inherit; font-size: 13px; padding: 2px 4px; }
.side { display: block; margin: 10px 0; font-weight: 600; }
.sidebar .side input { width: auto; }
#grow { margin-top: 10px; width: 100%; background: var(--accent); color: #fff; border-color: var(--accent); }
main { max-width: none; margin: 0; padding: 0; min-width: 0; }
#trees { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; margin: 0; }
#trees.two { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
.pane h2 { margin-bottom: 2px; }
.cv { margin: 0; font-weight: 600; }
.zoom-frame { position: relative; border: 1px solid var(--line); border-radius: 8px; background: #fcfcfd; }
.zoom-frame:focus { outline: 2px solid var(--accent); }
.zoom-bar { position: absolute; right: 6px; top: 6px; display: flex; gap: 4px; }
.tree-svg { display: block; width: 100%; height: 460px; touch-action: none; cursor: grab; }
.tree-svg .edge { fill: none; stroke: #9aa3ae; stroke-width: 1.2; }
.tree-svg .edge-label { font-size: 9.5px; fill: var(--muted); }
.tree-svg .box { fill: #fff; stroke: #b8c0ca; }
.tree-svg .light-box { opacity: 0.6; cursor: pointer; }
.tree-svg .leaf .box { fill: #f6f8fa; }
.tree-svg .box-title { font-size: 11px; font-weight: 600; fill: var(--fg); }
.tree-svg .box-sub { font-size: 9.5px; fill: var(--muted); }
.tree-svg .node { cursor: pointer; }
.tree-svg .node:hover .box, .tree-svg .node:focus .box { stroke: var(--accent); stroke-width: 2; }
.tree-svg .node:focus { outline: none; }
.tree-svg .node:focus-visible .box { stroke: var(--fg); stroke-width: 3; }
.tree-svg .selected .box { stroke: var(--accent); stroke-width: 3; fill: #e8f0fa; }
.tree-svg .disagree .box { stroke: #d62728; stroke-width: 3; stroke-dasharray: 5 3; }
.tree-svg .on-path .box { fill: #fff4d6; stroke: #c98a00; stroke-width: 2.5; }
table.scores td.chosen, table.scores th.chosen { background: #e8f0fa; }
table.scores td.best { font-weight: 700; }
#node-rows { width: 100%; font: 12px ui-monospace, monospace; }
.curve { width: 100%; max-width: 560px; height: auto; background: var(--soft); border-radius: 8px; }
.curve text { font-size: 11px; fill: var(--fg); }
.curve .tick { font-size: 10px; }
.curve .grid { stroke: #dde1e7; }
.curve .axis { stroke: #555; }
.curve .curve-line { stroke: var(--accent); stroke-width: 1.6; }
.curve .best-point { fill: #d62728; }
.curve .chosen-line { stroke: #c98a00; stroke-dasharray: 4 3; stroke-width: 1.5; }
.path-form {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 4px 10px; align-items: end;
}
.path-form .cell { display: flex; flex-direction: column; }
.path-form label { font-size: 12px; color: var(--muted); }
.path-form input, .path-form select { font: inherit; font-size: 13px; }
#why summary { cursor: pointer; }
#why summary h2 { display: inline; }
.why-picture svg { display: block; margin: 8px 0; }
.why-form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; font-size: 13px; }
.why-form input { width: 6em; font: inherit; }
.why-form select { max-width: 100%; font: inherit; }
pre {
  white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft);
  padding: 8px; border-radius: 6px; max-height: 360px; overflow: auto;
}
@media (max-width: 900px) {
  .page { grid-template-columns: minmax(0, 1fr); padding: 8px; }
  #trees.two { grid-template-columns: minmax(0, 1fr); }
  header { padding: 14px 12px; }
  .tree-svg { height: 340px; }
}
`;
