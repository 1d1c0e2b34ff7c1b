import { useState } from 'react';
import { createProject } from '../api';
import type { Project } from '../api-types';
import { formatTime } from '../format';
import type { ChosenProject } from '../session';

interface Props {
  projects: Project[] | null;
  current: ChosenProject | null;
  onOpen(project: Project): void;
  onCreated(project: Project): void;
}

export function ProjectsPage({ projects, current, onOpen, onCreated }: Props) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  // Catches its own errors (shown as `error`): the form calls it with `void`, nothing to await.
  async function create(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const project = await createProject({ name: name.trim() });
      setName('');
      onCreated(project);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <section className="page">
      <div className="page-head">
        <h1>Projects</h1>
        <form className="inline-form" onSubmit={(event) => void create(event)}>
          <label className="field compact">
            <span>New project name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
          </label>
          <button type="submit" className="secondary" disabled={!name.trim()}>
            Create project
          </button>
        </form>
      </div>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {projects === null ? (
        <p className="muted" role="status">
          Loading projects…
        </p>
      ) : projects.length === 0 ? (
        <p className="empty">No project yet: create one to send traces to it.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Projects of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Project key</th>
              <th scope="col">Description</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id} className={current?.id === p.id ? 'selected' : undefined}>
                <td className="strong">{p.name}</td>
                <td>
                  <code>{p.key}</code>
                </td>
                <td className="muted">{p.description || '—'}</td>
                <td>{formatTime(p.createdAt)}</td>
                <td className="actions">
                  <button type="button" className="secondary" onClick={() => onOpen(p)} aria-label={`Open traces of ${p.name}`}>
                    Open traces
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
