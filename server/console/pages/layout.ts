import { html, type Html } from '../html.js';

export interface Viewer {
  subject: string;
  groups: readonly string[];
  approver: boolean;
  csrf: string;
}

export type Section = 'approvals' | 'decided' | 'activity' | 'policy';

const SECTIONS: ReadonlyArray<[Section, string, string]> = [
  ['approvals', 'Approvals', '/console'],
  ['decided', 'Decided', '/console/decided'],
  ['activity', 'Activity', '/console/activity'],
  ['policy', 'Policy', '/console/policy'],
];

export interface Banner {
  kind: 'notice' | 'error';
  text: string;
}

/** Every page: the console's own stylesheet and script (nothing from elsewhere), the navigation, who is signed in. */
export function page(title: string, body: Html, options: { viewer?: Viewer; section?: Section; banner?: Banner } = {}): Html {
  const { viewer, section, banner } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · mcp-devtools console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<header class="top">
<a class="brand" href="/console">mcp-devtools <span>approvals</span></a>
${
  viewer
    ? html`<nav>${SECTIONS.map(([id, label, href]) => html`<a href="${href}"${id === section ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
<div class="who"><span class="subject">${viewer.subject}</span> <span class="role">${viewer.approver ? 'approver' : 'viewer'}</span>
<form method="post" action="/console/signout">${csrfField(viewer.csrf)}<button type="submit" class="link">Sign out</button></form></div>`
    : ''
}
</header>
<main>
${banner ? html`<p class="banner ${banner.kind}" role="${banner.kind === 'error' ? 'alert' : 'status'}">${banner.text}</p>` : ''}
${body}
</main>
</body>
</html>
`;
}

/** The hidden field every POST form carries; the server refuses a POST whose token is not the session's. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

/** "14 min 05 s", "2 h 10 min", "expired": how long an approval can still be decided. */
export function timeLeft(expiresAt: string, now: number): string {
  const seconds = Math.floor((Date.parse(expiresAt) - now) / 1000);
  if (seconds <= 0) return 'expired';
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')} min left`;
  if (seconds >= 60) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s left`;
  return `${seconds} s left`;
}

/** An ISO time as "2026-11-30 09:12:44 UTC". */
export function shortTime(iso: string | undefined): string {
  return iso === undefined ? '' : `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
