/**
 * MQTT accounts on the embedded broker: who may publish or subscribe where, and which account owns
 * a client id. `hearth/events/#` and `$SYS/` are never published by clients.
 *
 * A client id is bound to the account that holds it: while it is connected, and for as long as it
 * keeps a persistent session (clean = false), another account connecting with that id is refused
 * with CONNACK 2 "identifier rejected" — so it can neither kick the owner off [MQTT-3.1.4-2 applies
 * within one account only] nor receive the owner's queued messages. Sessions live in memory
 * (aedes-persistence), so the bindings do too.
 */
import type { Client } from 'aedes';
import { filterWithin, matchTopic } from './mappings/index.js';

export interface MqttAccount {
  username: string;
  password: string;
  publish: string[];
  subscribe: string[];
}

export const RESERVED = 'hearth/events/';

type WithAccount = Client & { hearthAccount?: MqttAccount };
export const accountOf = (client: Client | null | undefined) =>
  (client as WithAccount | null | undefined)?.hearthAccount;
export const setAccount = (client: Client, account: MqttAccount) =>
  void ((client as WithAccount).hearthAccount = account);

/** Why a client may not publish to `topic`, or null when it may. */
export function publishRefusal(account: MqttAccount | undefined, topic: string): string | null {
  if (topic.startsWith('$SYS/')) return '$SYS/ topic is reserved';
  if (topic.startsWith(RESERVED)) return `${RESERVED}# is published by Hearth only`;
  if (account && !account.publish.some((f) => matchTopic(f, topic) !== null))
    return `${account.username} may not publish to ${topic}`;
  return null;
}

/** A subscription is allowed when its filter lies within one the account is granted (wildcards included). */
export const maySubscribe = (account: MqttAccount | undefined, filter: string) =>
  !account || account.subscribe.some((p) => filterWithin(filter, p));

/** A message is delivered only on topics the receiving account may read (queued sessions included). */
export const mayReceive = (account: MqttAccount | undefined, topic: string) =>
  !account || account.subscribe.some((p) => matchTopic(p, topic) !== null);

/** Client id → owning account, for live connections and persistent sessions. */
export function createClientIds(live: (id: string) => Client | undefined) {
  const persistent = new Map<string, string>();
  return {
    /** Claims `client.id` for `account`; false when another account holds it. */
    claim(client: Client, account: MqttAccount): boolean {
      const holder = live(client.id);
      const liveOwner = holder && holder !== client ? accountOf(holder)?.username : undefined;
      const owner = liveOwner ?? persistent.get(client.id);
      if (owner !== undefined && owner !== account.username) return false;
      // A clean session discards what was stored under this id [MQTT-3.1.2-6], so the binding goes too.
      if (client.clean) persistent.delete(client.id);
      else persistent.set(client.id, account.username);
      return true;
    },
  };
}
