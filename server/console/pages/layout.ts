import type { Banner, ConsoleViewer } from '../../../core/plugin/contributions.js';
import { csrfField } from '../../../core/plugin/contributions.js';
import { html, type Html } from '../../../core/text/html.js';

export type { Banner };

/** A link of the navigation: a contributed page's label, where it is, and its path (`activity`) to mark the current one. */
export interface NavLink {
  page: string;
  label: string;
  href: string;
}

export interface PageOptions {
  viewer?: ConsoleViewer;
  nav?: readonly NavLink[];
  /** The page being shown (its path), marked in the navigation. */
  current?: string;
  banner?: Banner;
}

/**
 * Every page: the console's own stylesheet and script (nothing from elsewhere), the navigation of the contributed
 * pages, who is signed in and their role, and the sign-out button.
 */
export function page(title: string, body: Html, options: PageOptions = {}): Html {
  const { viewer, nav = [], current, banner } = options;
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
<a class="brand" href="/console">mcp-devtools <span>console</span></a>
${
  viewer
    ? html`<nav>${nav.map((link) => html`<a href="${link.href}"${link.page === current ? html` aria-current="page"` : ''}>${link.label}</a>`)}</nav>
<div class="who"><span class="subject">${viewer.subject}</span> <span class="role">${viewer.role}</span>
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
