// Reading ideas out of strict and sloppy model answers (parse-ideas.ts).
import { composeAnswer } from '@pluma/emulators/answer';
import { describe, expect, it } from 'vitest';
import { parseIdeas, toHashtag } from './parse-ideas';

describe('parseIdeas: topics', () => {
  it('reads a JSON array, also inside a fence with a preface, and cuts it to the count', () => {
    expect(parseIdeas('topics', '["Morning routines", "Budget travel", "Remote work"]', 2)).toEqual(['Morning routines', 'Budget travel']);
    const fenced = 'Sure! Here you go:\n```json\n[\n  "Eat local",\n  "Pack light"\n]\n```\nEnjoy.';
    expect(parseIdeas('topics', fenced, 5)).toEqual(['Eat local', 'Pack light']);
    expect(parseIdeas('topics', '[{"title": "One"}, {"topic": "Two"}]', 5)).toEqual(['One', 'Two']);
  });

  it('reads numbered and bulleted lines, dropping the preface, the closing remark and markdown', () => {
    const answer = 'Here are 4 topic ideas:\n\n1. **Why sleep matters**\n2) "Five quick breakfasts"\n- *Walking meetings*\n• Desk stretches\n\nLet me know if you want more!';
    expect(parseIdeas('topics', answer, 5)).toEqual(['Why sleep matters', 'Five quick breakfasts', 'Walking meetings', 'Desk stretches']);
  });

  it('takes plain lines when there is no list; skips headings, code, tables and lines ending with a colon', () => {
    const answer = '### Ideas\nTopics for you:\nThe rise of e-bikes\n| a | b |\n```\ncode line\n```\nCity parks at night\n';
    expect(parseIdeas('topics', answer, 5)).toEqual(['The rise of e-bikes', 'City parks at night']);
  });

  it('drops repeats (any case), keeps numbers inside a title, shortens a very long line', () => {
    expect(parseIdeas('topics', '- 2024 trends\n- 2024 Trends\n- 3.5 ways to save', 5)).toEqual(['2024 trends', '3.5 ways to save']);
    const [long] = parseIdeas('topics', `- ${'word '.repeat(80)}`, 2);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith('…')).toBe(true);
  });

  it('finds nothing in an empty answer', () => {
    expect(parseIdeas('topics', '  \n ', 3)).toEqual([]);
  });
});

describe('parseIdeas: hashtags', () => {
  it('normalises a JSON array to #words without repeats', () => {
    expect(parseIdeas('hashtags', '["#Travel", "travel", "food lovers", "#café", "  ", "niño"]', 20)).toEqual(['#Travel', '#FoodLovers', '#café', '#niño']);
  });

  it('collects hashtags written on one line or one per line, numbered or not', () => {
    expect(parseIdeas('hashtags', 'Try these: #fitness #Health #fitness\n1. #gym\n2. #yoga!', 20)).toEqual(['#fitness', '#Health', '#gym', '#yoga']);
  });

  it('turns phrases into hashtags when the answer has none; keeps the label of "label: reason"', () => {
    expect(parseIdeas('hashtags', '- Healthy eating: good for you\n- meal prep, fresh food', 20)).toEqual(['#HealthyEating', '#MealPrep', '#FreshFood']);
  });

  it('cuts to the count', () => {
    const tags = Array.from({ length: 30 }, (_, i) => `#tag${i}`).join(' ');
    expect(parseIdeas('hashtags', tags, 12)).toHaveLength(12);
  });

  it("reads the emulator's markdown answer (heading, paragraph, list, table, code) as its list", () => {
    const answer = composeAnswer('Healthy breakfast ideas');
    const topics = parseIdeas('topics', answer, 5);
    expect(topics.length).toBeGreaterThanOrEqual(3);
    expect(topics.every((t) => !t.startsWith('-') && !t.includes('**'))).toBe(true);
    const hashtags = parseIdeas('hashtags', answer, 20);
    expect(hashtags.length).toBeGreaterThanOrEqual(1);
    expect(hashtags.every((h) => /^#[\p{L}\p{N}_]+$/u.test(h))).toBe(true);
  });
});

describe('toHashtag', () => {
  it('keeps a hashtag, joins a phrase, refuses punctuation only', () => {
    expect(toHashtag('#ok')).toBe('#ok');
    expect(toHashtag('##double tag')).toBe('#DoubleTag');
    expect(toHashtag('!!!')).toBeNull();
  });
});
