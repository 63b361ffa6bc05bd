// Server-side texts of the templates feature in both languages (merged into messages.ts).
// The spec's own texts (part 2 §5, §8) are verbatim.
export const templatesMessagesEn = {
  template_input_empty: "The input can't be empty",
  template_label_too_long: 'The input max length is 254 characters',
  template_select_options: 'Select type must have at least one option',
  template_field_repeated: 'A field can appear only once in the content.',
  template_number_invalid: 'This field needs a number.',
  template_required_fields: 'Please complete all the required fields to save.',
  template_tag_unknown: 'This tag is not one of the template tags.',
  template_type_unknown: 'This type is not one of the template types.',
  template_tag_exists: 'This tag already exists.',
  template_type_exists: 'This type already exists.',
  template_public_admins_only: 'Only admins can make a template public.',
  template_prompt_owner_only: "Only the template's owner or staff can change its prompt, Editable and Show Prompt.",
  template_prompt_hidden: "This template's prompt is hidden, so it cannot be exported.",
  template_import_invalid: 'The file is not a templates export: {reason}',
  template_import_too_many: 'A file can hold at most {max} templates.',
  template_admin_only: 'Only admins can list every template.',
} as const;

export const templatesMessagesEs: Record<keyof typeof templatesMessagesEn, string> = {
  template_input_empty: 'El campo no puede estar vacío',
  template_label_too_long: 'La longitud máxima del campo es de 254 caracteres',
  template_select_options: 'El tipo selección debe tener al menos una opción',
  template_field_repeated: 'Un campo solo puede aparecer una vez en el contenido.',
  template_number_invalid: 'Este campo necesita un número.',
  template_required_fields: 'Por favor, completa todos los campos obligatorios para guardar.',
  template_tag_unknown: 'Esta etiqueta no es una de las etiquetas de plantillas.',
  template_type_unknown: 'Este tipo no es uno de los tipos de plantillas.',
  template_tag_exists: 'Esta etiqueta ya existe.',
  template_type_exists: 'Este tipo ya existe.',
  template_public_admins_only: 'Solo los administradores pueden hacer pública una plantilla.',
  template_prompt_owner_only: 'Solo el dueño de la plantilla o el personal pueden cambiar su prompt, Editable y Mostrar prompt.',
  template_prompt_hidden: 'El prompt de esta plantilla está oculto, así que no se puede exportar.',
  template_import_invalid: 'El archivo no es una exportación de plantillas: {reason}',
  template_import_too_many: 'Un archivo puede tener como máximo {max} plantillas.',
  template_admin_only: 'Solo los administradores pueden ver todas las plantillas.',
};
