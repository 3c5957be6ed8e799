/** The lexical rules of check_intentions that need no database: another time, topic triggers, event texts. */
import { describe, expect, it } from 'vitest';
import {
  capitalisedNames,
  coverage,
  eventText,
  isTopicTrigger,
  otherTime,
  triggerTerms,
} from '../../src/tiers/prospective/trigger-match.js';

describe('otherTime', () => {
  it('moves a past or future report off "now"', () => {
    for (const text of [
      'It rained all day yesterday',
      'Grace will be home tomorrow evening',
      "I'll ring Grandad after lunch",
      'The parcel arrives on Friday',
      'It rained all last weekend',
      'There was a hard frost last January',
      'it might start raining',
    ])
      expect(otherTime('if it starts raining', text), text).toBe(true);
  });
  it('leaves what is happening now alone, "a minute ago" included', () => {
    for (const text of [
      "It's starting to rain",
      'Anna walked through the front door a minute ago',
      'The kids are going to bed',
      "I'm working from home today",
    ])
      expect(otherTime('when Anna gets home', text), text).toBe(false);
  });
  it('does not apply to topic triggers, nor to a time word the trigger has itself', () => {
    expect(otherTime('when someone mentions the car', 'Should we take the car next week?')).toBe(false);
    expect(otherTime('next time I talk to Brian', 'Brian and I are talking about next week')).toBe(false);
    expect(otherTime('when the bins go out on Thursday', "It's Thursday, the bins are going out")).toBe(false);
  });
  it('moves a talk only by its own future: a time word may be what the talk is about', () => {
    for (const text of [
      "I'll talk to Brian tomorrow",
      'Brian will ask about the boiler next week',
      'I might speak to Brian later',
    ])
      expect(otherTime('next time I talk to Brian', text), text).toBe(true);
    for (const text of ['Brian and I are talking about next week', 'Brian is asking what we did yesterday'])
      expect(otherTime('next time I talk to Brian', text), text).toBe(false);
  });
});

describe('topic triggers', () => {
  it('count only the topic words: the text itself is the mention', () => {
    expect(isTopicTrigger('when someone mentions the car')).toBe(true);
    expect(isTopicTrigger('when someone brings up the camping trip')).toBe(true);
    expect(isTopicTrigger('next time I talk to Brian')).toBe(false);
    const text = new Set(triggerTerms('The car is making a weird noise'));
    expect(coverage(triggerTerms('when someone mentions the car'), text, true)).toBe(1);
    expect(coverage(triggerTerms('when someone mentions the car'), text, false)).toBeLessThan(0.7);
    // "brings up" is the mention too, not part of the topic
    const camping = new Set(triggerTerms('Grace is talking about the camping trip again'));
    expect(coverage(triggerTerms('when someone brings up the camping trip'), camping, true)).toBe(1);
    expect(
      coverage(triggerTerms('when someone brings up the camping trip'), new Set(triggerTerms('we went camping')), true),
    ).toBeLessThan(0.7);
  });
});

describe('irregular forms', () => {
  it('fold onto their base, which the stemmer does not do', () => {
    expect(coverage(triggerTerms('when Ada falls asleep'), new Set(triggerTerms('Ada has fallen asleep')))).toBe(1);
    expect(coverage(triggerTerms('when Ada falls asleep'), new Set(triggerTerms('Ada fell asleep on the sofa')))).toBe(
      1,
    );
  });
});

describe('eventText', () => {
  it('drops the lead-in and masks names, so a shared name does not make two events alike', () => {
    const names = ['Anna', ...capitalisedNames('when Anna gets home')];
    expect(eventText('when Anna gets home', names)).toBe('someone gets home');
    expect(eventText("Anna's at work", names)).toBe('someone at work');
    expect(eventText('next time I talk to Mrs Adeyemi', capitalisedNames('next time I talk to Mrs Adeyemi'))).toBe(
      'I talk to someone someone',
    );
    expect(eventText('If it starts raining', [])).toBe('it starts raining');
  });
  it('leaves words that only contain a name alone', () => {
    expect(eventText('Annabel is home', ['Anna'])).toBe('Annabel is home');
  });
});
