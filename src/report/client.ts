/**
 * The report's script (inline, no dependencies): hover tooltips for every element with a
 * `data-tip`, and the tree view — pick a data set and a configuration, click a node (or press
 * Enter/Space on it) to collapse or expand its children. Children are built on first expand, so
 * trees with thousands of nodes open at once. Plain ES2015, no template literals (it lives in one).
 */
export const CLIENT_JS = String.raw`
(function () {
  'use strict';
  var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f',
    '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
  function classColor(i) {
    return i < PALETTE.length ? PALETTE[i] : 'hsl(' + Math.round((i * 137.508) % 360) + ' 55% 50%)';
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmt(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }

  // Tooltips.
  var tip = el('div', 'tooltip');
  tip.setAttribute('role', 'tooltip');
  document.body.appendChild(tip);
  document.addEventListener('mouseover', function (e) {
    var t = e.target.closest ? e.target.closest('[data-tip]') : null;
    if (!t) { tip.style.display = 'none'; return; }
    tip.textContent = t.getAttribute('data-tip');
    tip.style.display = 'block';
  });
  document.addEventListener('mousemove', function (e) {
    var x = e.pageX + 14, y = e.pageY + 14;
    if (x + tip.offsetWidth > window.scrollX + document.documentElement.clientWidth - 8) {
      x = e.pageX - tip.offsetWidth - 10;
    }
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  });
  document.addEventListener('mouseleave', function () { tip.style.display = 'none'; });

  // Tree view.
  var holder = document.getElementById('grove-trees');
  var view = document.getElementById('tree-view');
  if (!holder || !view) return;
  var trees = JSON.parse(holder.textContent);
  var dsSel = document.getElementById('tree-dataset');
  var cfgSel = document.getElementById('tree-config');
  var info = document.getElementById('tree-stats');
  var legend = document.getElementById('tree-legend');
  var current = null;
  var datasets = [];
  trees.forEach(function (t) { if (datasets.indexOf(t.dataset) < 0) datasets.push(t.dataset); });
  datasets.forEach(function (d) { var o = el('option', null, d); o.value = d; dsSel.appendChild(o); });

  function fillConfigs() {
    var keep = cfgSel.value;
    cfgSel.innerHTML = '';
    trees.forEach(function (t) {
      if (t.dataset !== dsSel.value) return;
      var o = el('option', null, t.config);
      o.value = t.config;
      cfgSel.appendChild(o);
    });
    var kept = Array.prototype.some.call(cfgSel.options, function (o) { return o.value === keep; });
    if (keep && kept) cfgSel.value = keep;
  }

  function distBar(tree, counts) {
    var total = counts.reduce(function (a, b) { return a + b; }, 0);
    var bar = el('span', 'dist');
    var words = [];
    counts.forEach(function (c, i) {
      words.push(tree.classes[i] + ': ' + fmt(c));
      if (c <= 0) return;
      var s = el('span');
      s.style.width = (100 * c / total) + '%';
      s.style.background = classColor(i);
      bar.appendChild(s);
    });
    bar.setAttribute('data-tip', 'class distribution (' + fmt(total) + ' rows): ' + words.join(', '));
    return bar;
  }

  function majority(counts) {
    var b = 0;
    for (var i = 1; i < counts.length; i++) if (counts[i] > counts[b]) b = i;
    return b;
  }

  function makeNode(tree, id) {
    var node = tree.nodes[id];
    var counts = node[1], first = node[2], nChildren = node[3], feature = node[4];
    var li = el('li');
    li.setAttribute('data-node-id', String(id));
    var row = el('div', 'node ' + (nChildren ? 'inner' : 'leaf'));
    row.setAttribute('role', 'treeitem');
    row.tabIndex = 0;
    row.appendChild(el('span', 'toggle', nChildren ? '\u25B8' : '\u2022'));
    row.appendChild(el('span', 'cond', id === 0 ? 'root' : node[0]));
    row.appendChild(distBar(tree, counts));
    var total = counts.reduce(function (a, b) { return a + b; }, 0);
    var m = majority(counts);
    row.appendChild(el('span', 'leaf-class', String(tree.classes[m])));
    var share = total > 0 ? ', ' + (100 * counts[m] / total).toFixed(1) + ' % ' + tree.classes[m] : '';
    row.appendChild(el('span', 'sub', 'n = ' + fmt(total) + share));
    if (nChildren) {
      row.appendChild(el('span', 'split-on', '\u2192 split on ' + feature + ' (' + nChildren + ' branches)'));
      row.setAttribute('aria-expanded', 'false');
      row.addEventListener('click', function () { toggle(tree, li); });
      row.addEventListener('keydown', function (e) {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        toggle(tree, li);
      });
    }
    li.appendChild(row);
    li.groveFirst = first;
    li.groveCount = nChildren;
    return li;
  }

  function toggle(tree, li, open) {
    if (!li.groveCount) return;
    var ul = li.groveUl;
    if (!ul) {
      ul = el('ul', 'children');
      ul.setAttribute('role', 'group');
      for (var c = 0; c < li.groveCount; c++) ul.appendChild(makeNode(tree, li.groveFirst + c));
      ul.hidden = true;
      li.appendChild(ul);
      li.groveUl = ul;
    }
    var show = open === undefined ? ul.hidden : open;
    ul.hidden = !show;
    li.classList.toggle('open', show);
    var row = li.firstChild;
    row.setAttribute('aria-expanded', String(show));
    row.firstChild.textContent = show ? '\u25BE' : '\u25B8';
  }

  function expandTo(tree, li, depth) {
    if (depth <= 0 || !li.groveCount) return;
    toggle(tree, li, true);
    Array.prototype.forEach.call(li.groveUl.children, function (child) { expandTo(tree, child, depth - 1); });
  }

  function render() {
    var tree = null;
    trees.forEach(function (t) { if (t.dataset === dsSel.value && t.config === cfgSel.value) tree = t; });
    current = tree;
    view.innerHTML = '';
    legend.innerHTML = '';
    if (!tree) { info.textContent = 'no model saved for this pair'; return; }
    var s = tree.stats;
    info.textContent = tree.config + ' on ' + tree.dataset + ', fitted on all rows: ' +
      s.nodes + ' nodes, ' + s.leaves + ' leaves, height ' + s.height +
      ', ' + s.needless + ' needless features, fitted in ' + s.fitMs + ' ms. Click a node to collapse or expand it.';
    tree.classes.forEach(function (c, i) {
      var item = el('span');
      var sw = el('span', 'swatch');
      sw.style.background = classColor(i);
      item.appendChild(sw);
      item.appendChild(document.createTextNode(c));
      legend.appendChild(item);
    });
    var ul = el('ul');
    ul.setAttribute('role', 'tree');
    var root = makeNode(tree, 0);
    ul.appendChild(root);
    view.appendChild(ul);
    expandTo(tree, root, 2);
  }

  dsSel.addEventListener('change', function () { fillConfigs(); render(); });
  cfgSel.addEventListener('change', render);
  document.getElementById('tree-expand').addEventListener('click', function () {
    if (current) expandTo(current, view.querySelector('li'), 1e9);
  });
  document.getElementById('tree-collapse').addEventListener('click', function () {
    if (!current) return;
    var root = view.querySelector('li');
    Array.prototype.forEach.call(view.querySelectorAll('li'), function (li) {
      if (li.groveUl) toggle(current, li, false);
    });
    toggle(current, root, true);
  });
  // A click on a cell of the accuracy table opens that tree.
  Array.prototype.forEach.call(document.querySelectorAll('td.tree-link'), function (td) {
    td.addEventListener('click', function () {
      dsSel.value = td.getAttribute('data-dataset');
      fillConfigs();
      cfgSel.value = td.getAttribute('data-config');
      render();
      document.getElementById('trees').scrollIntoView({ behavior: 'smooth' });
    });
  });
  fillConfigs();
  render();
})();
`;
