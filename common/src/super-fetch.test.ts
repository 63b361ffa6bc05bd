import { describe, expect, it } from 'vitest';
import { DEFAULT_SUPER_FETCH_PROMPT, fillSuperFetchPrompt, superFetchRequest, superFetchSpreadsheetName, type SuperFetchInputs } from './super-fetch';

const inputs: SuperFetchInputs = {
  task: 'Write an email',
  topic: 'Spring sale',
  target: 'Past customers',
  person: 'The founder',
  tone: 'Friendly',
  format: 'PAS',
  examples: '',
  callToAction: 'Shop now',
  prompt: '',
};

describe('fillSuperFetchPrompt', () => {
  it('replaces {Variables} in any case and spacing, CTA for the call to action', () => {
    expect(fillSuperFetchPrompt('Do {task} about { TOPIC } for {Target}; end with {cta}.', { ...inputs })).toBe(
      'Do Write an email about Spring sale for Past customers; end with Shop now.\n\nPerson: The founder\nTone: Friendly\nFormat: PAS',
    );
  });

  it('uses the default template when the admin left it empty, dropping lines of empty optional inputs', () => {
    const prompt = fillSuperFetchPrompt('  ', inputs);
    expect(DEFAULT_SUPER_FETCH_PROMPT).toContain('{Examples}');
    expect(prompt).toContain('Call to action: Shop now');
    expect(prompt).not.toContain('Examples');
    expect(prompt).not.toContain('Additional instructions');
    expect(prompt).not.toMatch(/\{\w+\}/);
  });

  it('appends inputs the template never mentions (the variables hint is not enforced)', () => {
    expect(fillSuperFetchPrompt('Write about {Topic}.', { ...inputs, prompt: 'Under 100 words' }).split('\n')).toEqual([
      'Write about Spring sale.',
      '',
      'Task: Write an email',
      'Target: Past customers',
      'Person: The founder',
      'Tone: Friendly',
      'Format: PAS',
      'CTA: Shop now',
      'Prompt: Under 100 words',
    ]);
  });
});

describe('superFetchSpreadsheetName', () => {
  it('is {avatar}_{name}_{YYYY_MM_DD_HH_mm}.xlsx with unsafe characters replaced', () => {
    expect(superFetchSpreadsheetName('Super Fetch', 'Spring sale', new Date(2026, 2, 5, 9, 7))).toBe('Super Fetch_Spring sale_2026_03_05_09_07.xlsx');
    expect(superFetchSpreadsheetName('A/B', 'x:y', new Date(2026, 11, 31, 23, 59))).toBe('A-B_x-y_2026_12_31_23_59.xlsx');
  });
});

describe('superFetchRequest', () => {
  it('starts at 1 output, refuses 0 and more than 10, and needs the six required inputs', () => {
    const base = { task: 'a', topic: 'b', target: 'c', person: 'd', tone: 'e', format: 'f' };
    expect(superFetchRequest.parse(base)).toMatchObject({ outputs: 1, examples: '', callToAction: '', prompt: '' });
    expect(superFetchRequest.safeParse({ ...base, outputs: 0 }).success).toBe(false);
    expect(superFetchRequest.safeParse({ ...base, outputs: 11 }).success).toBe(false);
    expect(superFetchRequest.safeParse({ ...base, tone: ' ' }).success).toBe(false);
    expect(superFetchRequest.safeParse({ ...base, feedback: { input: '' } }).success).toBe(false);
    expect(superFetchRequest.parse({ ...base, feedback: { input: 'Shorter' } }).feedback).toEqual({ input: 'Shorter', liked: null });
  });
});
