import { useCallback, useEffect, useState } from 'react';
import { ApiError, listProjects } from './api';
import type { Project } from './api-types';
import { Layout } from './components/Layout';
import { ProjectsPage } from './pages/ProjectsPage';
import { SignInPage } from './pages/SignInPage';
import { TracePage } from './pages/TracePage';
import { TracesPage } from './pages/TracesPage';
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

  const needsProject = route.page === 'traces' || route.page === 'trace';
  return (
    <Layout projects={projects} project={project} onPick={(p) => pick(p, route.page === 'projects' ? '/traces' : '/traces')} onSignOut={leave} current={route.page}>
      {error && <p className="notice error" role="alert">{error}</p>}
      {route.page === 'projects' && <ProjectsPage projects={projects} current={project} onOpen={(p) => pick(p)} onCreated={(p) => setProjects((list) => [p, ...(list ?? [])])} />}
      {needsProject && !project && <NoProject />}
      {route.page === 'traces' && project && <TracesPage key={project.id} search={route.search} />}
      {route.page === 'trace' && project && <TracePage key={`${project.id}/${route.id}`} id={route.id} spanId={route.span} />}
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
      <p>Traces belong to a project: pick one in the project switcher above, or on the projects page.</p>
    </section>
  );
}
