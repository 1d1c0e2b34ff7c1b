import { useCallback, useEffect, useState } from 'react';
import { ApiError, listProjects } from './api';
import type { Project } from './api-types';
import { Layout } from './components/Layout';
import { ProjectsPage } from './pages/ProjectsPage';
import { SignInPage } from './pages/SignInPage';
import { TracePage } from './pages/TracePage';
import { TracesPage } from './pages/TracesPage';
import { BenchmarkPage } from './pages/BenchmarkPage';
import { BenchmarksPage } from './pages/BenchmarksPage';
import { DatasetPage } from './pages/DatasetPage';
import { DatasetsPage } from './pages/DatasetsPage';
import { PromptPage } from './pages/PromptPage';
import { SettingsPage } from './pages/SettingsPage';
import { PromptsPage } from './pages/PromptsPage';
import { navigate, useRoute } from './router';
import { apiKey, chooseProject, chosenProject, signOut } from './session';

export function App() {
  const route = useRoute();
  const [signedIn, setSignedIn] = useState(() => apiKey() !== null);
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [project, setProject] = useState(chosenProject);

  const leave = useCallback(() => {
    signOut();
    setSignedIn(false);
    setProjects(null);
    setProject(null);
    navigate('/sign-in', { replace: true });
  }, []);

  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    listProjects()
      .then((page) => live && setProjects(page.data))
      .catch((e: unknown) => {
        if (!live) return;
        // A key revoked since sign-in: back to the sign-in page rather than a broken console.
        if (e instanceof ApiError && e.status === 401) leave();
        else setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      live = false;
    };
  }, [signedIn, leave]);

  const pick = useCallback((p: Project, to = '/traces') => {
    chooseProject(p);
    setProject(chosenProject());
    navigate(to);
  }, []);

  if (!signedIn || route.page === 'sign-in') {
    return (
      <SignInPage
        signedIn={signedIn}
        onSignedIn={() => {
          setSignedIn(true);
          navigate('/projects', { replace: true });
        }}
      />
    );
  }

  // Everything but the projects and the organization's settings belongs to a project.
  const needsProject = route.page !== 'projects' && route.page !== 'settings' && route.page !== 'not-found';
  // The nav marks the list page for a resource's own page too.
  const section = ({ trace: 'traces', benchmark: 'benchmarks', prompt: 'prompts', dataset: 'datasets' } as Record<string, string>)[route.page] ?? route.page;
  return (
    <Layout
      projects={projects}
      project={project}
      onPick={(p) => pick(p, ['prompts', 'datasets', 'benchmarks', 'settings'].includes(section) ? `/${section}` : '/traces')}
      onSignOut={leave}
      current={section}
    >
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {route.page === 'projects' && <ProjectsPage projects={projects} current={project} onOpen={(p) => pick(p)} onCreated={(p) => setProjects((list) => [p, ...(list ?? [])])} />}
      {needsProject && !project && <NoProject />}
      {route.page === 'traces' && project && <TracesPage key={project.id} search={route.search} />}
      {route.page === 'trace' && project && <TracePage key={`${project.id}/${route.id}`} id={route.id} spanId={route.span} />}
      {route.page === 'benchmarks' && project && <BenchmarksPage key={project.id} />}
      {route.page === 'benchmark' && project && <BenchmarkPage key={`${project.id}/${route.id}`} id={route.id} search={route.search} />}
      {route.page === 'prompts' && project && <PromptsPage key={project.id} search={route.search} />}
      {route.page === 'prompt' && project && <PromptPage key={`${project.id}/${route.id}`} id={route.id} search={route.search} />}
      {route.page === 'datasets' && project && <DatasetsPage key={project.id} />}
      {route.page === 'dataset' && project && <DatasetPage key={`${project.id}/${route.id}`} id={route.id} />}
      {route.page === 'settings' && <SettingsPage />}
      {route.page === 'not-found' && (
        <section className="page">
          <h1>Page not found</h1>
          <p>
            <a href="/projects" onClick={(e) => (e.preventDefault(), navigate('/projects'))}>
              Back to projects
            </a>
          </p>
        </section>
      )}
    </Layout>
  );
}

function NoProject() {
  return (
    <section className="page">
      <h1>Choose a project</h1>
      <p>Traces, prompts, datasets and benchmarks belong to a project: pick one in the project switcher above, or on the projects page.</p>
    </section>
  );
}
