import { describe, expect, it } from 'vitest';
import { translate } from '../messages';
import { checkFieldValues, checkTemplateDraft, fillTemplate, parseTemplateFields, TEMPLATE_FIELD_LABEL_MAX } from './template-fields';

const shape = (content: string) => parseTemplateFields(content).fields.map(({ name, type, options, order }) => ({ name, type, options, order }));

describe('parseTemplateFields', () => {
  it('reads text fields from bracketed names, in order of first appearance', () => {
    expect(shape('Write about [Topic] for [Audience].')).toEqual([
      { name: 'Topic', type: 'text', options: [], order: 0 },
      { name: 'Audience', type: 'text', options: [], order: 1 },
    ]);
    expect(parseTemplateFields('No fields here.').fields).toEqual([]);
  });

  it('gives label, empty value and a valid flag to each field', () => {
    expect(parseTemplateFields('[Topic]').fields[0]).toEqual({
      name: 'Topic',
      label: 'Topic',
      type: 'text',
      options: [],
      order: 0,
      value: '',
      isValidField: true,
    });
  });

  it('reads a number field marked with #', () => {
    expect(shape('In [#Words] words')).toEqual([{ name: 'Words', type: 'number', options: [], order: 0 }]);
    expect(shape('[ # Palabras ]')).toEqual([{ name: 'Palabras', type: 'number', options: [], order: 0 }]);
  });

  it('reads a select: options split on "/", the trailing empty item dropped', () => {
    expect(shape('[Tone: formal/casual/friendly/]')).toEqual([{ name: 'Tone', type: 'select', options: ['formal', 'casual', 'friendly'], order: 0 }]);
    // without the trailing slash the last option stays
    expect(shape('[Tone: formal/casual]')[0]?.options).toEqual(['formal', 'casual']);
    expect(shape('[Tono:  muy formal / cercano /]')[0]).toEqual({ name: 'Tono', type: 'select', options: ['muy formal', 'cercano'], order: 0 });
    expect(parseTemplateFields('[Tone: formal/]').errors).toEqual([]);
  });

  it('refuses a select without options or with an empty option', () => {
    for (const content of ['[Tone:]', '[Tone: /]', '[Tone: a//b/]', '[Tone:   ]']) {
      const { fields, errors } = parseTemplateFields(content);
      expect(errors, content).toEqual([{ order: 0, name: 'Tone', key: 'template_select_options' }]);
      expect(fields[0]?.isValidField).toBe(false);
    }
    expect(translate('en', 'template_select_options')).toBe('Select type must have at least one option');
  });

  it('keeps a "/" without ":" in a text field name', () => {
    expect(shape('[and/or]')).toEqual([{ name: 'and/or', type: 'text', options: [], order: 0 }]);
  });

  it('accepts accented and Spanish names and keeps them as written', () => {
    expect(shape('Escribe sobre [Año de fundación] en [Ñandú] con [Tono: cálido/irónico/]').map((f) => f.name)).toEqual([
      'Año de fundación',
      'Ñandú',
      'Tono',
    ]);
    expect(parseTemplateFields('[Año] [Descripción]').errors).toEqual([]);
  });

  it('trims names and squeezes inner spaces', () => {
    expect(shape('[  Target   audience ]')[0]?.name).toBe('Target audience');
  });

  it('refuses an empty label', () => {
    const { fields, errors } = parseTemplateFields('Hello [] and [   ]');
    expect(fields.map((f) => f.name)).toEqual(['', '']);
    expect(errors.map((e) => e.key)).toEqual(['template_input_empty', 'template_input_empty']);
    expect(parseTemplateFields('[#]').errors[0]?.key).toBe('template_input_empty');
    expect(parseTemplateFields('[: a/b/]').errors[0]?.key).toBe('template_input_empty');
    expect(translate('en', 'template_input_empty')).toBe("The input can't be empty");
  });

  it('takes labels of 1 to 254 characters', () => {
    const ok = 'a'.repeat(TEMPLATE_FIELD_LABEL_MAX);
    expect(parseTemplateFields(`[${ok}]`).errors).toEqual([]);
    expect(parseTemplateFields('[x]').errors).toEqual([]);
    const { errors } = parseTemplateFields(`[${ok}b]`);
    expect(errors).toEqual([{ order: 0, name: `${ok}b`, key: 'template_label_too_long' }]);
    // counted in characters, not UTF-16 units
    expect(parseTemplateFields(`[${'ñ'.repeat(254)}]`).errors).toEqual([]);
    expect(parseTemplateFields(`[${'😀'.repeat(254)}]`).errors).toEqual([]);
    expect(translate('en', 'template_label_too_long')).toBe('The input max length is 254 characters');
  });

  it('refuses a repeated field (without case), keeping one field', () => {
    const { fields, errors } = parseTemplateFields('[Topic] then [Audience] and [topic] and [Topic]');
    expect(fields.map((f) => f.name)).toEqual(['Topic', 'Audience']);
    expect(errors).toEqual([{ order: 0, name: 'Topic', key: 'template_field_repeated' }]);
    expect(fields[0]?.isValidField).toBe(false);
    expect(fields[1]?.isValidField).toBe(true);
    // a number and a text of the same name are still the same name
    expect(parseTemplateFields('[Words] [#Words]').errors.map((e) => e.key)).toEqual(['template_field_repeated']);
  });

  it('ignores brackets across lines and nested brackets', () => {
    expect(shape('[not\na field] [[Inner]]')).toEqual([{ name: 'Inner', type: 'text', options: [], order: 0 }]);
  });
});

describe('checkTemplateDraft', () => {
  it('requires name, description and content', () => {
    const check = checkTemplateDraft({ name: ' ', description: '', content: '' });
    expect(check.valid).toBe(false);
    expect(check.errors).toEqual({ name: 'template_input_empty', description: 'template_input_empty', content: 'template_input_empty' });
  });

  it('names field errors by their order', () => {
    const check = checkTemplateDraft({ name: 'N', description: 'D', content: '[Topic] [Tone:] []' });
    expect(check.errors).toEqual({ 'fields.1': 'template_select_options', 'fields.2': 'template_input_empty' });
  });

  it('passes a complete template and returns its fields', () => {
    const check = checkTemplateDraft({ name: 'N', description: 'D', content: 'About [Topic] in [#Words] words, [Tone: a/b/]' });
    expect(check.valid).toBe(true);
    expect(check.errors).toEqual({});
    expect(check.fields.map((f) => f.type)).toEqual(['text', 'number', 'select']);
    expect(translate('es', 'template_required_fields')).toBe('Por favor, completa todos los campos obligatorios para guardar.');
  });
});

describe('checkFieldValues', () => {
  const { fields } = parseTemplateFields('[Topic] [#Words] [Tone: formal/casual/]');

  it('needs every value non-empty', () => {
    expect(checkFieldValues(fields, {})).toEqual({ Topic: 'template_input_empty', Words: 'template_input_empty', Tone: 'template_input_empty' });
    expect(checkFieldValues(fields, { Topic: '  ', Words: '5', Tone: 'formal' })).toEqual({ Topic: 'template_input_empty' });
  });

  it('needs a number for a number field and an option for a select', () => {
    expect(checkFieldValues(fields, { Topic: 'x', Words: 'many', Tone: 'loud' })).toEqual({ Words: 'template_number_invalid', Tone: 'template_select_options' });
    expect(checkFieldValues(fields, { Topic: 'x', Words: '2,5', Tone: 'casual' })).toEqual({});
  });

  it('matches values to fields as fillTemplate does (without case)', () => {
    expect(checkFieldValues(fields, { topic: 'x', WORDS: '3', ' tone ': 'formal' })).toEqual({});
  });
});

describe('fillTemplate', () => {
  it('replaces each field with its value, wherever and however it is written', () => {
    const content = 'Write [#Words] words about [Topic] in a [Tone: formal/casual/] tone.';
    expect(fillTemplate(content, { Words: '300', Topic: 'coffee', Tone: 'casual' })).toBe('Write 300 words about coffee in a casual tone.');
  });

  it('matches names without case and with accents', () => {
    expect(fillTemplate('Hola [Año]', { año: '2024' })).toBe('Hola 2024');
    expect(fillTemplate('Hola [ Año de  fundación ]', { 'Año de fundación': '1990' })).toBe('Hola 1990');
  });

  it('leaves a bracket without a value as written and does not re-read values', () => {
    expect(fillTemplate('[Topic] and [Other]', { Topic: '[Other]' })).toBe('[Other] and [Other]');
    expect(fillTemplate('[]', {})).toBe('[]');
  });
});
