import type { ReactNode } from 'react';
import { onLinkClick } from '../router';

/** A console link: same-tab navigation without a reload. */
export function Link({ to, children, className, label }: { to: string; children: ReactNode; className?: string; label?: string }) {
  return (
    <a href={to} className={className} aria-label={label} onClick={(e) => onLinkClick(e, to)}>
      {children}
    </a>
  );
}
