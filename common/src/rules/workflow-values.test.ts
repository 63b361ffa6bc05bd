import { describe, expect, it } from 'vitest';
import { parseTemplateFields } from './template-fields';
import {
  checkWorkflowValues,
  decodeWorkflowValues,
  encodeWorkflowValues,
  mergeWorkflowFields,
  pickWorkflowValues,
  tryDecodeWorkflowValues,
  WorkflowValuesFormatError,
} from './workflow-values';

describe('encodeWorkflowValues / decodeWorkflowValues', () => {
  it('writes the spec comma-separated key=value string for plain values', () => {
    expect(encodeWorkflowValues({ Topic: 'cats', Tone: 'formal' })).toBe('Topic=cats,Tone=formal');
    expect(decodeWorkflowValues('Topic=cats,Tone=formal')).toEqual({ Topic: 'cats', Tone: 'formal' });
  });

  it('round-trips commas, equals signs, backslashes and line breaks in values and keys', () => {
    const tricky = {
      Topic: 'cats, dogs, and birds',
      Formula: 'a=b, c==d',
      Path: 'C:\\temp\\new,=\\',
      Body: 'line one\nline two\r\nthree',
      'Odd=key,name': '=,\\',
      Empty: '',
      Spanish: 'Año ñandú, acción=sí',
    };
    const encoded = encodeWorkflowValues(tricky);
    expect(decodeWorkflowValues(encoded)).toEqual(tricky);
    // The encoding keeps one pair per unescaped comma: no raw line breaks survive in the text.
    expect(encoded).not.toMatch(/[\n\r]/);
  });

  it('escapes exactly the special characters', () => {
    expect(encodeWorkflowValues({ a: 'x,y=z\\w\n' })).toBe('a=x\\,y\\=z\\\\w\\n');
  });

  it('decodes the empty string to no values and an empty value to ""', () => {
    expect(decodeWorkflowValues('')).toEqual({});
    expect(decodeWorkflowValues('a=')).toEqual({ a: '' });
    expect(encodeWorkflowValues({})).toBe('');
  });

  it('keeps the last value of a key given twice', () => {
    expect(decodeWorkflowValues('a=1,a=2')).toEqual({ a: '2' });
  });

  it('refuses malformed text: a pair without =, a second bare =, a bad escape, a trailing backslash', () => {
    for (const bad of ['a', 'a=1,b', 'a=b=c', 'a=\\x', 'a=1\\', ',a=1']) {
      expect(() => decodeWorkflowValues(bad), bad).toThrow(WorkflowValuesFormatError);
      expect(tryDecodeWorkflowValues(bad), bad).toBeNull();
    }
  });
});

const fieldsOf = (...contents: string[]) => mergeWorkflowFields(contents.map((c) => parseTemplateFields(c).fields));

describe('mergeWorkflowFields', () => {
  it('is the union of the templates fields by name without case, in order of first appearance', () => {
    const fields = fieldsOf('Write about [Topic] for [Audience]', 'Shorten [topic] in [#Words] words');
    expect(fields.map((f) => [f.name, f.type, f.order])).toEqual([
      ['Topic', 'text', 0],
      ['Audience', 'text', 1],
      ['Words', 'number', 2],
    ]);
  });

  it('lets the strictest declaration win and intersects select options', () => {
    const fields = fieldsOf('[Tone] and [Size]', '[Tone: formal/casual/funny/] [#Size]', '[Tone: casual/formal/]');
    expect(fields[0]).toMatchObject({ name: 'Tone', type: 'select', options: ['formal', 'casual'], isValidField: true });
    expect(fields[1]).toMatchObject({ name: 'Size', type: 'number' });
  });

  it('marks a select whose options do not overlap as invalid', () => {
    const [tone] = fieldsOf('[Tone: a/b/]', '[Tone: c/d/]');
    expect(tone).toMatchObject({ options: [], isValidField: false });
  });
});

describe('checkWorkflowValues', () => {
  const fields = fieldsOf('About [Topic] in [#Words] words, [Tone: formal/casual/]');

  it('requires every field, numbers for number fields and a listed option for selects', () => {
    expect(checkWorkflowValues(fields, {})).toEqual({ Topic: 'template_input_empty', Words: 'template_input_empty', Tone: 'template_input_empty' });
    expect(checkWorkflowValues(fields, { Topic: ' ', Words: 'many', Tone: 'angry' })).toEqual({
      Topic: 'template_input_empty',
      Words: 'template_number_invalid',
      Tone: 'template_select_options',
    });
    expect(checkWorkflowValues(fields, { topic: 'cats, dogs', words: '200', tone: 'formal' })).toEqual({});
  });

  it('picks the values of the fields only, under the fields own names', () => {
    expect(pickWorkflowValues(fields, { topic: ' cats ', Words: '2', Tone: 'casual', Stale: 'x' })).toEqual({ Topic: 'cats', Words: '2', Tone: 'casual' });
  });
});
