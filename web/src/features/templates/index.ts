// What other features use of templates (features meet through index.ts): the template calls and the form
// that applies one, which the document editor's template tool reuses.
export { ApplyForm } from './ApplyForm';
export { capitalise, useMessageText } from './field-text';
export { useTemplate, useTemplates } from './templates-api';
