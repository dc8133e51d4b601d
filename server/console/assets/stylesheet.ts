/**
 * The console's whole stylesheet, served from /console/assets/console.css (no external fonts or frameworks).
 * One column on phones; tables of the `stack` class turn into labelled blocks below 720px so nothing scrolls
 * sideways.
 */
export const STYLESHEET = `
:root { --fg: #1d2330; --muted: #5d6778; --line: #d8dde6; --bg: #f5f7fa; --card: #fff; --accent: #2454c5;
  --ok: #1d7a46; --ok-bg: #e3f4ea; --bad: #b42318; --bad-bg: #fdecea; --warn: #8a5a00; --warn-bg: #fff4db; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
code { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; overflow-wrap: anywhere; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 20px; padding: 10px 20px; background: #1d2330; color: #fff; }
header.top a { color: #fff; text-decoration: none; }
.brand { font-weight: 700; } .brand span { font-weight: 400; opacity: .75; }
nav { display: flex; gap: 4px; flex-wrap: wrap; }
nav a { padding: 4px 10px; border-radius: 6px; }
nav a[aria-current="page"] { background: rgba(255,255,255,.16); }
.who { margin-left: auto; display: flex; align-items: center; gap: 8px; }
.who form { display: inline; }
.role { font-size: 12px; padding: 1px 8px; border-radius: 10px; background: rgba(255,255,255,.16); }
button.link { background: none; border: 0; color: #fff; text-decoration: underline; padding: 0; cursor: pointer; font: inherit; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 20px 40px; }
h1 { font-size: 24px; margin: 8px 0 4px; } h2 { font-size: 19px; margin-top: 28px; } h3 { font-size: 16px; margin: 0; } h4 { font-size: 13px; margin: 8px 0 2px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.lead { color: var(--muted); margin-top: 0; }
.muted { color: var(--muted); }
.empty { padding: 16px; background: var(--card); border: 1px dashed var(--line); border-radius: 8px; color: var(--muted); }
.banner { padding: 10px 14px; border-radius: 8px; }
.banner.notice { background: var(--ok-bg); color: var(--ok); }
.banner.error { background: var(--bad-bg); color: var(--bad); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 480px), 1fr)); gap: 14px; }
.approval { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--warn); border-radius: 8px; padding: 14px 16px; min-width: 0; }
.approval header { display: flex; justify-content: space-between; gap: 8px; flex-wrap: wrap; align-items: baseline; }
.vendor, .groups, .via { font-size: 12px; color: var(--muted); }
.vendor { padding: 1px 8px; border-radius: 10px; background: var(--bg); }
.time-left { font-size: 13px; font-weight: 600; color: var(--warn); }
.time-left.expired { color: var(--bad); }
.request { margin: 8px 0; }
.method { font: 700 12px/1 ui-monospace, Menlo, monospace; padding: 3px 6px; border-radius: 4px; background: #e8edf7; color: var(--accent); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; }
dt { color: var(--muted); } dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.args ul, ul.conditions { list-style: none; margin: 0; padding: 0; }
.args li { overflow-wrap: anywhere; }
.d1 { padding-left: 16px; } .d2 { padding-left: 32px; } .d3 { padding-left: 48px; } .d4 { padding-left: 64px; } .d5 { padding-left: 80px; }
.key { font-weight: 600; } .type { color: var(--muted); font-style: italic; }
.actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-top: 12px; border-top: 1px solid var(--line); padding-top: 12px; }
.actions .bulk { margin-left: auto; font-size: 13px; }
a.button { display: inline-block; padding: 7px 16px; border-radius: 6px; text-decoration: none; font-weight: 600; color: #fff; }
a.button.grant { background: var(--ok); } a.button.reject { background: var(--bad); }
.expired-card .actions { display: none; }
.args li { padding: 1px 0; }
.args .value { white-space: pre-wrap; }
pre.value { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; background: var(--bg); border-radius: 6px; padding: 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; }
details.fold { display: inline; } details.fold summary { display: inline; cursor: pointer; list-style: none; } details.fold summary::-webkit-details-marker { display: none; }
details.fold[open] summary code { display: none; }
.show-all { font-size: 12px; color: var(--accent); text-decoration: underline; white-space: nowrap; }
.redacted { font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 10px; background: #eceff4; color: var(--muted); }
.redactions, .withheld { font-size: 12px; margin: 4px 0 0; }
.environment { font-size: 12px; font-weight: 700; padding: 1px 8px; border-radius: 10px; background: var(--bg); text-transform: uppercase; letter-spacing: .03em; }
.env-production, .env-prod { background: var(--bad-bg); color: var(--bad); }
form.confirm { display: grid; gap: 10px; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; margin: 14px 0; }
form.confirm .buttons { display: flex; gap: 14px; align-items: center; }
ul.picks { list-style: none; margin: 0; padding: 0; } ul.picks li { padding: 4px 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
label.pick { display: block; color: var(--fg); font-size: 14px; } label.pick input { width: auto; margin-right: 6px; }
.pager { display: flex; gap: 16px; justify-content: center; margin: 14px 0; }
textarea, input, select { width: 100%; font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--fg); }
button { font: inherit; padding: 7px 16px; border-radius: 6px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
button.grant { background: var(--ok); border-color: var(--ok); color: #fff; font-weight: 600; }
button.reject { background: var(--bad); border-color: var(--bad); color: #fff; font-weight: 600; }
button:disabled { opacity: .5; cursor: not-allowed; }
.own { margin: 12px 0 0; color: var(--muted); font-style: italic; }
.status, .outcome, .effect { font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 10px; background: var(--bg); white-space: nowrap; }
.granted, .ok, .allow, .used { background: var(--ok-bg); color: var(--ok); }
.rejected, .denied, .deny, .error { background: var(--bad-bg); color: var(--bad); }
.held, .approval_required, .waiting { background: var(--warn-bg); color: var(--warn); }
.outcome.expired { background: #eceff4; color: var(--muted); }
table { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
td code { overflow-wrap: break-word; }
td:first-child { white-space: nowrap; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); white-space: nowrap; }
tr.applies { background: #f1f6ff; }
li.holds { color: var(--ok); } li.fails { color: var(--muted); }
.chain { padding: 10px 14px; border-radius: 8px; }
.chain.ok { background: var(--ok-bg); color: var(--ok); }
.chain.broken { background: var(--bad-bg); color: var(--bad); }
form.filters, form.explain, form.signin { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 200px), 1fr)); gap: 10px; align-items: end; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; margin: 12px 0; }
form.explain label:nth-of-type(2) { grid-column: 1 / -1; }
form.signin { max-width: 520px; grid-template-columns: 1fr; }
label { display: block; font-size: 13px; color: var(--muted); }
.decision { padding: 10px 14px; border-radius: 8px; }
@media (max-width: 720px) {
  main { padding: 12px; }
  .who { margin-left: 0; width: 100%; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack thead { display: none; }
  table.stack tr { border-bottom: 2px solid var(--line); padding: 6px 0; }
  table.stack td { position: relative; min-height: 1.9em; border: 0; padding: 3px 10px 3px calc(7.5em + 18px); white-space: normal; }
  table.stack td:empty { display: none; }
  table.stack td, table.stack td code { overflow-wrap: anywhere; }
  table.stack td::before { content: attr(data-label); position: absolute; left: 10px; top: 6px; width: 7.5em; font-size: 11px; line-height: 1.3; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
}
`;
