import type { ReactNode } from 'react';
import type { Project } from '../api-types';
import { onLinkClick } from '../router';
import type { ChosenProject } from '../session';

interface Props {
  projects: Project[] | null;
  project: ChosenProject | null;
  current: string;
  onPick(project: Project): void;
  onSignOut(): void;
  children: ReactNode;
}

/** The frame of every signed-in page: brand, navigation, the project switcher, sign out. */
export function Layout({ projects, project, current, onPick, onSignOut, children }: Props) {
  const link = (to: string, label: string, page: string) => (
    <a href={to} onClick={(e) => onLinkClick(e, to)} aria-current={current === page ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <div className="shell">
      <header className="topbar">
        <a className="brand" href="/projects" onClick={(e) => onLinkClick(e, '/projects')}>
          <span className="brand-mark" aria-hidden="true">
            ▶
          </span>{' '}
          Cinetrace
        </a>
        <nav aria-label="Main">
          {link('/projects', 'Projects', 'projects')}
          {link('/traces', 'Traces', 'traces')}
          {link('/prompts', 'Prompts', 'prompts')}
          {link('/datasets', 'Datasets', 'datasets')}
          {link('/benchmarks', 'Benchmarks', 'benchmarks')}
          {link('/settings', 'Settings', 'settings')}
        </nav>
        <div className="topbar-end">
          <div className="switcher">
            <label htmlFor="project-switcher">Project</label>
            <select
              id="project-switcher"
              value={project?.id ?? ''}
              onChange={(e) => {
                const next = projects?.find((p) => p.id === e.target.value);
                if (next) onPick(next);
              }}
            >
              {!project && <option value="">Choose a project…</option>}
              {project && !projects?.some((p) => p.id === project.id) && <option value={project.id}>{project.name}</option>}
              {projects?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="ghost" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main>{children}</main>
    </div>
  );
}
