import { describe, expect, it } from 'vitest';
import { personalityBlock } from './personality-block';

describe('personalityBlock', () => {
  it('extracts the text between the Spanish begin and end phrases, without the markdown around them', () => {
    const text = 'Aquí está:\n\n**INICIO DE PERSONALIDAD**\nEres una coach cálida y directa.\nHablas en frases cortas.\n**FIN DE PERSONALIDAD**\n\n¿Algo más?';
    expect(personalityBlock(text)).toBe('Eres una coach cálida y directa.\nHablas en frases cortas.');
    expect(personalityBlock('### Inicio de la personalidad:\nTono sereno.\n### Fin de la personalidad')).toBe('Tono sereno.');
  });

  it('finds nothing without both phrases, with them in the wrong order, or with an empty block', () => {
    expect(personalityBlock('INICIO DE PERSONALIDAD sin final')).toBeNull();
    expect(personalityBlock('FIN DE PERSONALIDAD antes. INICIO DE PERSONALIDAD después')).toBeNull();
    expect(personalityBlock('INICIO DE PERSONALIDAD\n**\nFIN DE PERSONALIDAD')).toBeNull();
    expect(personalityBlock('Begin personality: calm. End personality')).toBeNull();
  });
});
