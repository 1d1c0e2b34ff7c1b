// The API key and the chosen project live in sessionStorage: gone when the tab closes,
// never in a URL (where history, logs and Referer headers would keep it).

const API_KEY = 'cinetrace.apiKey';
const PROJECT = 'cinetrace.project';

export interface ChosenProject {
  id: string;
  name: string;
  /** The project's key, sent as X-Project-Key on project-scoped calls. */
  key: string;
}

export function apiKey(): string | null {
  return sessionStorage.getItem(API_KEY);
}

export function signIn(key: string): void {
  sessionStorage.setItem(API_KEY, key);
}

export function signOut(): void {
  sessionStorage.removeItem(API_KEY);
  sessionStorage.removeItem(PROJECT);
}

export function chosenProject(): ChosenProject | null {
  const text = sessionStorage.getItem(PROJECT);
  if (!text) return null;
  try {
    const value = JSON.parse(text) as ChosenProject;
    return value && typeof value.key === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function chooseProject(project: ChosenProject): void {
  sessionStorage.setItem(PROJECT, JSON.stringify({ id: project.id, name: project.name, key: project.key }));
}
