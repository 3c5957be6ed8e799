/**
 * A synthetic household for the recall benchmark: ~200 entities (people, rooms, devices) and facts
 * from templates filled by a seeded PRNG, plus questions — some that stored facts answer, some that
 * nothing answers (the evidence gate's case), some scoped to an entity. Realistic enough that FTS
 * terms and vectors have the spread of real household facts, not N copies of one sentence.
 */
import type { Category } from '../../src/tiers/memory/memory.schemas.js';
import type { Prng } from './common.js';

const FIRST = `Brian Alice Maya Leo Sofia Omar Priya Jonas Nora Felix Grace Hugo Ines Kai Lena Marco Nadia Oscar
  Paula Quinn Rosa Sam Tara Ugo Vera Will Xena Yusuf Zoe Ada Ben Clara Dev Emma Finn Gia Hana Ivan Jade Karl Lucy
  Milo Nina Owen Pia Raj Sara Theo Uma Vic Wren Amir Bea Cole Dina Eli Faye Gus Hope Ian June Kira Luis Mona Nate
  Opal Pete Ruth Seth Tess`.split(/\s+/);
const ROOMS = `kitchen;living room;bedroom;master bedroom;guest room;bathroom;en-suite;hallway;garage;basement;attic;
  office;study;nursery;playroom;laundry room;dining room;porch;patio;garden;shed;pantry;mudroom;loft;conservatory;
  workshop;gym;cellar;balcony;driveway;utility room;den;library;sunroom;boot room;kids bathroom;upstairs landing;
  downstairs toilet;music room;tv room`
  .split(';')
  .map((s) => s.trim());
const DEVICE_KINDS = `thermostat;dehumidifier;air purifier;robot vacuum;smart plug;ceiling fan;heat pump;water heater;
  dishwasher;washing machine;dryer;fridge;freezer;oven;doorbell;smoke alarm;motion sensor;door sensor;speaker;tv;
  router;space heater;humidifier;kettle;coffee machine;garage door;sprinkler;blinds;lamp;camera`
  .split(';')
  .map((s) => s.trim());

const FOODS =
  'oat milk,espresso,green tea,sourdough,porridge,mushrooms,spicy curry,sushi,cilantro,peanut butter,dark chocolate,lasagne,pancakes,mint tea,kimchi'.split(
    ',',
  );
const ACTIVITIES =
  'yoga,running,piano practice,reading,gaming,knitting,gardening,cycling,homework,meditation,baking,painting,swimming,chess,podcasts'.split(
    ',',
  );
const DAYS = 'Monday,Tuesday,Wednesday,Thursday,Friday,Saturday,Sunday,weekdays,weekends'.split(',');
const MUSIC = 'jazz,classical,lo-fi,rock,folk,techno,audiobooks,the news,country,opera'.split(',');
const RELS =
  'sister,brother,daughter,son,partner,grandmother,grandfather,cousin,flatmate,best friend,neighbour,nanny'.split(',');
const TRAITS =
  'allergic to cats,allergic to pollen,lactose intolerant,vegetarian,a light sleeper,colour-blind,hard of hearing,afraid of thunderstorms,an early riser,a night owl'.split(
    ',',
  );
const COLORS = 'warm white,cool white,amber,soft blue,green,red,purple,daylight'.split(',');

/** A person, room or device facts are about. */
export interface Entity {
  name: string;
  type: 'person' | 'room' | 'device';
}

/** A `remember` body. */
export interface HouseholdFact {
  entity_name: string;
  entity_type: string;
  category: Category;
  fact: string;
}

export interface HouseholdQuery {
  query: string;
  entity_name?: string;
  /** answerable = built from a template stored facts use; unanswerable = asks what no template says */
  kind: 'answerable' | 'unanswerable';
}

/** ~200 entities: 70 people, 40 rooms, ~90 devices named by room ("kitchen smart plug"). */
export function entities(rng: Prng): Entity[] {
  const out: Entity[] = FIRST.map((name) => ({ name, type: 'person' as const }));
  for (const r of ROOMS) out.push({ name: r, type: 'room' });
  const seen = new Set<string>();
  while (seen.size < 90) seen.add(`${rng.pick(ROOMS)} ${rng.pick(DEVICE_KINDS)}`);
  for (const d of seen) out.push({ name: d, type: 'device' });
  return out;
}

const time = (rng: Prng) => `${rng.int(5, 11)}:${rng.pick(['00', '15', '30', '45'])}${rng.pick(['am', 'pm'])}`;

type Template = (rng: Prng, e: Entity, all: Entity[]) => { category: Category; fact: string; query: string };

const people = (all: Entity[]) => all.filter((e) => e.type === 'person');

/** Fact templates per entity type; each yields the fact and a question a user might ask of it. */
const TEMPLATES: Record<Entity['type'], Template[]> = {
  person: [
    (r, e) => {
      const room = r.pick(ROOMS);
      const t = r.int(62, 74);
      return {
        category: 'preference',
        fact: `${e.name} keeps the ${room} at ${t}°F at night`,
        query: `what temperature does ${e.name} like the ${room} at night`,
      };
    },
    (r, e) => {
      const f = r.pick(FOODS);
      return {
        category: 'preference',
        fact: `${e.name} ${r.pick(['loves', 'likes', 'prefers', 'always orders'])} ${f}${r.chance(0.5) ? ` for ${r.pick(['breakfast', 'lunch', 'dinner'])}` : ''}`,
        query: `does ${e.name} like ${f}`,
      };
    },
    (r, e) => {
      const f = r.pick(FOODS);
      return { category: 'preference', fact: `${e.name} doesn't eat ${f}`, query: `what food does ${e.name} avoid` };
    },
    (r, e) => {
      const a = r.pick(ACTIVITIES);
      const d = r.pick(DAYS);
      return {
        category: 'habit',
        fact: `${e.name} does ${a} on ${d} at ${time(r)}`,
        query: `when does ${e.name} do ${a}`,
      };
    },
    (r, e) => {
      const t = time(r);
      return {
        category: 'routine',
        fact: `${e.name} usually gets home around ${t} on ${r.pick(DAYS)}`,
        query: `what time does ${e.name} get home`,
      };
    },
    (r, e) => {
      const t = time(r);
      return {
        category: 'routine',
        fact: `${e.name} goes to bed at ${t} and reads for ${r.int(5, 60)} minutes`,
        query: `when does ${e.name} go to bed`,
      };
    },
    (r, e, all) => {
      const o = r.pick(people(all)).name;
      const rel = r.pick(RELS);
      return { category: 'relationship', fact: `${o} is ${e.name}'s ${rel}`, query: `who is ${e.name}'s ${rel}` };
    },
    (r, e) => {
      const m = r.pick(MUSIC);
      const room = r.pick(ROOMS);
      return {
        category: 'preference',
        fact: `${e.name} plays ${m} in the ${room} while ${r.pick(['cooking', 'working', 'cleaning', 'relaxing'])}`,
        query: `what music does ${e.name} play in the ${room}`,
      };
    },
    (r, e) => {
      const t = r.pick(TRAITS);
      return {
        category: 'insight',
        fact: `${e.name} is ${t}`,
        query: `is ${e.name} ${t.split(' ').slice(-2).join(' ')}`,
      };
    },
    (r, e) => {
      const n = r.int(2, 40);
      return {
        category: 'general',
        fact: `${e.name}'s birthday is on the ${(n % 28) + 1}th of ${r.pick(['March', 'June', 'October', 'January', 'August'])}`,
        query: `when is ${e.name}'s birthday`,
      };
    },
    (r, e) => {
      const c = r.pick(COLORS);
      const room = r.pick(ROOMS);
      return {
        category: 'preference',
        fact: `${e.name} wants ${c} light at ${r.int(10, 100)}% in the ${room}`,
        query: `what light does ${e.name} want in the ${room}`,
      };
    },
  ],
  room: [
    (r, e) => {
      const t = r.int(15, 24);
      return {
        category: 'general',
        fact: `The ${e.name} radiator is set to ${t}°C in winter`,
        query: `what is the ${e.name} radiator set to`,
      };
    },
    (r, e) => {
      const h = r.int(35, 70);
      return {
        category: 'insight',
        fact: `The ${e.name} humidity rises to ${h}% after ${r.pick(['showers', 'cooking', 'laundry', 'rain'])}`,
        query: `why is the ${e.name} humid`,
      };
    },
    (r, e) => {
      const d = r.pick(DAYS);
      return {
        category: 'routine',
        fact: `The ${e.name} is cleaned every ${d} at ${time(r)}`,
        query: `when is the ${e.name} cleaned`,
      };
    },
    (r, e) => {
      const c = r.pick(COLORS);
      return {
        category: 'preference',
        fact: `The ${e.name} lights switch to ${c} at ${time(r)}`,
        query: `when do the ${e.name} lights change colour`,
      };
    },
    (r, e, all) => {
      const p = r.pick(people(all)).name;
      return {
        category: 'general',
        fact: `${p} has the spare key for the ${e.name} ${r.pick(['window', 'door', 'cabinet', 'safe'])}`,
        query: `who has the spare key for the ${e.name}`,
      };
    },
    (r, e) => {
      const w = r.int(2, 9);
      return {
        category: 'insight',
        fact: `The ${e.name} window ${r.pick(['sticks', 'rattles', 'leaks'])} when the wind is above ${w * 5} mph`,
        query: `what is wrong with the ${e.name} window`,
      };
    },
  ],
  device: [
    (r, e) => {
      const n = r.int(1, 12);
      return {
        category: 'general',
        fact: `The ${e.name} filter needs replacing every ${n} months`,
        query: `how often does the ${e.name} filter need replacing`,
      };
    },
    (r, e) => {
      const t = time(r);
      return {
        category: 'routine',
        fact: `The ${e.name} turns on at ${t} on ${r.pick(DAYS)}`,
        query: `when does the ${e.name} turn on`,
      };
    },
    (r, e) => {
      const w = r.int(5, 2500);
      return {
        category: 'insight',
        fact: `The ${e.name} draws about ${w} watts when running`,
        query: `how much power does the ${e.name} use`,
      };
    },
    (r, e, all) => {
      const p = r.pick(people(all)).name;
      return {
        category: 'general',
        fact: `${p} set up the ${e.name} in ${r.int(2015, 2025)}`,
        query: `who set up the ${e.name}`,
      };
    },
    (r, e) => {
      const c = r.int(1000, 9999);
      return {
        category: 'general',
        fact: `The ${e.name} warranty code is ${c} and it expires in ${r.int(2025, 2030)}`,
        query: `when does the ${e.name} warranty expire`,
      };
    },
    (r, e) => {
      return {
        category: 'habit',
        fact: `The ${e.name} gets unplugged when ${r.pick(['we travel', 'storms come', 'guests stay', 'the baby sleeps'])}`,
        query: `when do we unplug the ${e.name}`,
      };
    },
  ],
};

/** Questions nothing in the templates answers: the evidence gate must return nothing for them. */
const UNANSWERABLE: ((r: Prng, e: Entity) => string)[] = [
  (_r, e) => `what is ${e.name}'s blood type`,
  (_r, e) => `which bank does ${e.name} use`,
  (_r, e) => `what is the passport number of ${e.name}`,
  (r) => `where did we put the ${r.pick(['ski boots', 'tax returns', 'wedding album', 'tent pegs'])}`,
  (r) => `what is the wifi password for the ${r.pick(['guest network', 'mesh extender'])}`,
  (_r, e) => `how many horses does ${e.name} own`,
  (r) => `when is the next ${r.pick(['dentist appointment', 'parent evening', 'bin collection', 'flight to Lisbon'])}`,
];

/** The next fact: a random entity and one of its type's templates. */
export function nextFact(rng: Prng, all: Entity[]): HouseholdFact {
  const e = rng.pick(all);
  const t = rng.pick(TEMPLATES[e.type])(rng, e, all);
  return { entity_name: e.name, entity_type: e.type, category: t.category, fact: t.fact };
}

/**
 * `n` questions: ~70 % answerable (a template's question, filled fresh, so it matches stored facts
 * about the same things), ~30 % unanswerable; ~30 % of both scoped to the entity they name.
 */
export function queries(rng: Prng, all: Entity[], n: number): HouseholdQuery[] {
  const out: HouseholdQuery[] = [];
  for (let i = 0; i < n; i++) {
    const e = rng.pick(all);
    const scoped = rng.chance(0.3);
    if (rng.chance(0.7)) {
      const t = rng.pick(TEMPLATES[e.type])(rng, e, all);
      out.push({ query: t.query, kind: 'answerable', ...(scoped && { entity_name: e.name }) });
    } else {
      out.push({ query: rng.pick(UNANSWERABLE)(rng, e), kind: 'unanswerable', ...(scoped && { entity_name: e.name }) });
    }
  }
  return out;
}
