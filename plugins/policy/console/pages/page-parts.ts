import type { Banner } from '../../../../core/plugin/contributions.js';
import type { Html } from '../../../../core/text/html.js';

export type { Banner };

/** The signed-in person as the approvals pages draw them: whether they may decide, and their forms' CSRF token. */
export interface Viewer {
  subject: string;
  groups: readonly string[];
  approver: boolean;
  csrf: string;
}

/** What a page function makes: its title and body, drawn by the console's frame in its layout. */
export interface PageBody {
  title: string;
  body: Html;
  banner?: Banner;
}

export function pageBody(title: string, body: Html, options: { banner?: Banner } = {}): PageBody {
  return options.banner === undefined ? { title, body } : { title, body, banner: options.banner };
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
