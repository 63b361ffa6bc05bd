// Server-side texts of the campaigns feature in both languages (merged into messages.ts).
// The spec's own texts (part 2 §5) are verbatim.
export const campaignsMessagesEn = {
  campaign_organization_required: 'Please select an organization',
  campaign_required: 'Please select a campaign',
  campaign_name_required: 'Please add a name to your campaign.',
  campaign_resource_type_invalid: 'The type must be document or template.',
  campaign_resource_exists: 'It is already in the campaign.',
  campaign_resource_unknown: 'There is no such document or template in the campaign’s organization.',
  campaign_access_target_required: 'Choose a user or a group.',
  campaign_access_exists: 'They already have access to this campaign.',
  campaign_form_invalid: 'The campaign form is not valid JSON.',
  campaign_document_name_required: 'Please give the document a name.',
} as const;

export const campaignsMessagesEs: Record<keyof typeof campaignsMessagesEn, string> = {
  campaign_organization_required: 'Por favor selecciona una organización',
  campaign_required: 'Por favor selecciona una campaña',
  campaign_name_required: 'Por favor agrega un nombre a tu campaña.',
  campaign_resource_type_invalid: 'El tipo debe ser documento o plantilla.',
  campaign_resource_exists: 'Ya está en la campaña.',
  campaign_resource_unknown: 'No hay tal documento o plantilla en la organización de la campaña.',
  campaign_access_target_required: 'Elige un usuario o un grupo.',
  campaign_access_exists: 'Ya tienen acceso a esta campaña.',
  campaign_form_invalid: 'El formulario de la campaña no es un JSON válido.',
  campaign_document_name_required: 'Por favor ponle un nombre al documento.',
} as const;
