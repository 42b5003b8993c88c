/** The stylesheet of the pages we render ourselves (the index and the events reference); no external fonts. */
export const DOCS_CSS = `
:root { --fg: #1d2433; --muted: #5b6478; --line: #e3e6ee; --bg: #fff; --soft: #f6f7fb; --accent: #2653d9;
  --inferred: #b4540a; --inferred-bg: #fff1e3; --experimental: #7a3cc8; --experimental-bg: #f3ebff;
  --terminal: #8a1c2b; --terminal-bg: #fde8eb; --server: #0b6e4f; --client: #2653d9; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
pre { background: #0f1729; color: #e6e9f2; border-radius: 8px; padding: 12px 14px; overflow: auto; margin: 6px 0 0; }
pre code { background: none; border: 0; padding: 0; color: inherit; }
header.top { display: flex; align-items: baseline; gap: 16px; padding: 14px 28px; border-bottom: 1px solid var(--line);
  position: sticky; top: 0; background: var(--bg); z-index: 2; }
header.top h1 { font-size: 18px; margin: 0; }
header.top .meta { color: var(--muted); font-size: 13px; }
header.top nav { margin-left: auto; display: flex; gap: 16px; font-size: 14px; }
.layout { display: grid; grid-template-columns: 260px minmax(0, 1fr); }
.toc { position: sticky; top: 53px; align-self: start; height: calc(100vh - 53px); overflow: auto; padding: 18px 16px;
  border-right: 1px solid var(--line); background: var(--soft); font-size: 14px; }
.toc h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 16px 0 6px; }
.toc ul { list-style: none; margin: 0; padding: 0; }
.toc li { margin: 2px 0; overflow-wrap: anywhere; }
.toc a { color: var(--fg); }
main.content { padding: 8px 40px 80px; max-width: 1100px; }
section { scroll-margin-top: 64px; }
h2.part { font-size: 24px; margin: 36px 0 8px; padding-top: 12px; border-top: 1px solid var(--line); }
article.card { border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; margin: 16px 0;
  scroll-margin-top: 64px; }
article.card h3 { margin: 0 0 4px; font-size: 18px; display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.sub { color: var(--muted); font-size: 13px; margin: 0 0 8px; }
.badge { display: inline-block; font-size: 11.5px; font-weight: 600; line-height: 1; padding: 4px 7px; border-radius: 999px;
  vertical-align: middle; white-space: nowrap; }
.badge.inferred { color: var(--inferred); background: var(--inferred-bg); }
.badge.experimental { color: var(--experimental); background: var(--experimental-bg); }
.badge.terminal { color: var(--terminal); background: var(--terminal-bg); }
.badge.server { color: var(--server); background: #e3f6ee; }
.badge.client { color: var(--client); background: #e6edff; }
table.fields { width: 100%; border-collapse: collapse; margin: 8px 0 4px; font-size: 14px; }
table.fields th { text-align: left; font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted);
  border-bottom: 1px solid var(--line); padding: 6px 8px; }
table.fields td { border-bottom: 1px solid var(--line); padding: 7px 8px; vertical-align: top; }
table.fields td.name code { font-weight: 600; }
table.fields .req { color: #b42318; font-size: 12px; margin-left: 4px; }
table.fields .type { color: var(--muted); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
table.fields .constraints { color: var(--muted); font-size: 12.5px; }
.legend { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; font-size: 13px; color: var(--muted);
  background: var(--soft); border-radius: 8px; padding: 10px 14px; margin: 14px 0; }
.examples h4, .fields-title { margin: 14px 0 4px; font-size: 13px; text-transform: uppercase; letter-spacing: .05em;
  color: var(--muted); }
.examples .name { font-size: 12.5px; color: var(--muted); margin-top: 8px; }
ul.types { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; padding: 0; margin: 6px 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 16px; margin: 24px 0; }
.cards a.card { display: block; border: 1px solid var(--line); border-radius: 12px; padding: 20px; color: var(--fg); }
.cards a.card:hover { border-color: var(--accent); text-decoration: none; }
.cards a.card h2 { margin: 0 0 6px; font-size: 18px; color: var(--accent); }
@media (max-width: 860px) { .layout { grid-template-columns: 1fr; } .toc { display: none; } main.content { padding: 8px 18px; } }
`;
