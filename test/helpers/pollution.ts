/**
 * Prototype pollution check for the fuzz suites: properties added to the built-in prototypes since
 * this module loaded. They are removed as they are reported, so one pollution does not poison the
 * rest of the run (a polluted Object.prototype makes the mqtt.js client itself run out of memory).
 */
const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype] as const;
const PRISTINE = PROTOTYPES.map((p) => new Set(Reflect.ownKeys(p)));

export function pollution(): string[] {
  const out: string[] = [];
  PROTOTYPES.forEach((proto, i) => {
    for (const k of Reflect.ownKeys(proto)) {
      if (PRISTINE[i].has(k)) continue;
      const v = (proto as any)[k];
      out.push(
        `${proto.constructor.name}.prototype.${String(k)} = ${typeof v === 'number' ? String(v) : String(JSON.stringify(v)).slice(0, 40)}`,
      );
      delete (proto as any)[k];
    }
  });
  return out;
}
