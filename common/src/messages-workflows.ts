// Server-side texts of the workflows feature in both languages (merged into messages.ts).
export const workflowsMessagesEn = {
  workflow_tags_invalid: 'A workflow has at most 10 tags of up to 60 characters each.',
  workflow_templates_required: 'Choose at least one template.',
  workflow_template_not_public: 'Only public templates can be steps of a workflow, so every user can run them.',
  workflow_fields_conflict: 'The templates give the field "{field}" select options that do not overlap.',
  workflow_values_malformed: 'The values are not a valid key=value list.',
  workflow_values_incomplete: 'Fill in every field of the workflow before running a step.',
  workflow_previous_step_missing: 'Run step {step} first and wait for its answer: this step uses it.',
  workflow_step_unknown: 'This conversation is not a step of this workflow.',
  /** Put between the previous step's answer and this step's prompt (like a document given as context). */
  workflow_previous_output_instruction: 'Use the above text to make a response for the next request',
} as const;

export const workflowsMessagesEs: Record<keyof typeof workflowsMessagesEn, string> = {
  workflow_tags_invalid: 'Un flujo de trabajo tiene como máximo 10 etiquetas de hasta 60 caracteres cada una.',
  workflow_templates_required: 'Elige al menos una plantilla.',
  workflow_template_not_public: 'Solo las plantillas públicas pueden ser pasos de un flujo de trabajo, para que todos los usuarios puedan ejecutarlas.',
  workflow_fields_conflict: 'Las plantillas dan al campo "{field}" opciones de selección que no coinciden.',
  workflow_values_malformed: 'Los valores no son una lista clave=valor válida.',
  workflow_values_incomplete: 'Completa todos los campos del flujo de trabajo antes de ejecutar un paso.',
  workflow_previous_step_missing: 'Ejecuta primero el paso {step} y espera su respuesta: este paso la usa.',
  workflow_step_unknown: 'Esta conversación no es un paso de este flujo de trabajo.',
  workflow_previous_output_instruction: 'Usa el texto anterior para dar una respuesta a la siguiente petición',
};
