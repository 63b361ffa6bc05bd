// What other features use of trainings (features meet through index.ts): the panels of the avatar page.
export { OutputsPanel } from './OutputsPanel';
export { TrainingsPanel } from './TrainingsPanel';
