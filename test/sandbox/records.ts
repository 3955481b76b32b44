/**
 * What the sandbox holds: the known credentials (connections) and, per connection, its people,
 * borrowers, documents and webhooks. Seeded people are shared JSON strings; a connection only
 * records how many of them it holds.
 */
import { SEED_TIME } from './seed';
import { nowIso, type JsonObject, type RecordKind } from './types';

export interface Connection {
	/** How many of the seeded people belong to this connection (a prefix of the seeded set). */
	seededPeople: number;
	/** People created through POST, as precomputed JSON strings, in creation order. */
	createdPeople: string[];
	/** Index into createdPeople by person id. */
	createdPeopleById: Map<string, number>;
	/** Seeded people changed through PUT, as JSON by id (the seeded strings are shared by connections). */
	updatedPeople: Map<string, string>;
	/** Ids of people deleted through DELETE /api/people/{id} (seeded or created). */
	deletedPeople: Set<string>;
	/** Records of the published endpoints beyond the specification (crmEntities.ts), by entity path. */
	entities: Map<string, EntityTable>;
	borrowers: Map<string, JsonObject>;
	documents: Map<string, JsonObject>;
	webhooks: Map<string, JsonObject>;
	/** Ids of webhooks registered as delivery targets (a PUT with url and event, or addWebhook with both). */
	deliveryTargets: Set<string>;
}

/** One entity's records on one connection, and the number behind the next created id. */
export interface EntityTable {
	rows: Map<string, JsonObject>;
	created: number;
}

export interface CredentialRecord {
	id: string;
	createdAt: string;
	appKey: unknown;
	label?: string;
	data: JsonObject;
}

export function makeBorrower(id: string, fields: JsonObject, at = nowIso()): JsonObject {
	return {
		...fields,
		id,
		created: at,
		updated: at,
		serviceUpdated: at,
		originalIds: { los: `los-${id}` },
		original: { ...fields },
	};
}

export function makeWebhook(id: string, fields: JsonObject): JsonObject {
	return { id, status: 'active', event: '', url: '', filters: {}, ...fields };
}

export class Records {
	readonly credentials = new Map<string, CredentialRecord>();
	readonly connections = new Map<string, Connection>();
	counters = { person: 0, document: 0, credential: 0, authRequest: 0 };

	constructor(
		private readonly initialIds: string[],
		/** Shared by every reseed until `reseedWith` gives others. */
		private seededPeople: string[],
	) {
		this.reseed();
	}

	get defaultCredentialId(): string {
		return this.initialIds[0];
	}

	/** How many people are seeded (the first connection holds them; a profiled one too, profiles.ts). */
	get seededCount(): number {
		return this.seededPeople.length;
	}

	/** Back to the start: the initial connections, each with borrower b-1 and webhook w-1. */
	reseed(): void {
		this.credentials.clear();
		this.connections.clear();
		for (const id of this.initialIds) {
			this.credentials.set(id, {
				id,
				createdAt: SEED_TIME,
				appKey: 'sandbox-app',
				label: `Sandbox connection ${id}`,
				data: { entitiesToSync: {} },
			});
			const connection = this.connection(id);
			const borrower = {
				name: 'Sample Borrower',
				type: 'individual',
				emails: [
					{ value: 'borrower@example.test', type: 'home', status: 'Valid', isPrimary: true },
				],
			};
			connection.borrowers.set('b-1', makeBorrower('b-1', borrower, SEED_TIME));
			// Not a delivery target until a PUT gives it a url and an event (events.ts).
			connection.webhooks.set(
				'w-1',
				makeWebhook('w-1', {
					event: 'peopleCreated',
					url: 'https://hooks.example.test/w-1',
					filters: {},
				}),
			);
		}
		this.connection(this.defaultCredentialId).seededPeople = this.seededPeople.length;
		this.counters = {
			person: this.seededPeople.length,
			document: 0,
			credential: 0,
			authRequest: 0,
		};
	}

	/** Back to the start with other seeded people (POST /__sandbox/config {"people": n}). */
	reseedWith(people: string[]): void {
		this.seededPeople = people;
		this.reseed();
	}

	connection(credentialId: string): Connection {
		if (!this.credentials.has(credentialId))
			throw new Error(`unknown credential id '${credentialId}'`);
		let connection = this.connections.get(credentialId);
		if (!connection) {
			connection = {
				seededPeople: 0,
				createdPeople: [],
				createdPeopleById: new Map(),
				updatedPeople: new Map(),
				deletedPeople: new Set(),
				entities: new Map(),
				borrowers: new Map(),
				documents: new Map(),
				webhooks: new Map(),
				deliveryTargets: new Set(),
			};
			this.connections.set(credentialId, connection);
		}
		return connection;
	}

	/** Without credentialId: summed over all connections (for 'credentials': the number of credentials). */
	count(kind: RecordKind, credentialId?: string): number {
		if (kind === 'credentials') {
			return credentialId === undefined
				? this.credentials.size
				: this.credentials.has(credentialId)
					? 1
					: 0;
		}
		const size = (connection: Connection): number =>
			kind === 'people' ? this.peopleCount(connection) : connection[kind].size;
		if (credentialId !== undefined) {
			const connection = this.connections.get(credentialId);
			return connection ? size(connection) : 0;
		}
		let total = 0;
		for (const connection of this.connections.values()) total += size(connection);
		return total;
	}

	peopleCount(connection: Connection): number {
		return (
			connection.seededPeople + connection.createdPeople.length - connection.deletedPeople.size
		);
	}

	/** JSON strings of the connection's people in [from, to): seeded ones first, then created ones. */
	peopleJson(connection: Connection, from: number, to: number): string[] {
		const stored = connection.seededPeople + connection.createdPeople.length;
		const at = (i: number): string =>
			i < connection.seededPeople
				? (connection.updatedPeople.get(`p_${i + 1}`) ?? this.seededPeople[i])
				: connection.createdPeople[i - connection.seededPeople];
		const out: string[] = [];
		if (connection.deletedPeople.size === 0) {
			// The common case, and the benchmark's: no deletions, so positions are indices.
			for (let i = from; i < Math.min(to, stored); i++) out.push(at(i));
			return out;
		}
		let position = 0;
		for (let i = 0; i < stored && position < to; i++) {
			const json = at(i);
			if (connection.deletedPeople.has(this.idOf(connection, i))) continue;
			if (position++ >= from) out.push(json);
		}
		return out;
	}

	private idOf(connection: Connection, index: number): string {
		if (index < connection.seededPeople) return `p_${index + 1}`;
		return (JSON.parse(connection.createdPeople[index - connection.seededPeople]) as JsonObject)
			.id as string;
	}

	/** Deletes a person; false when the connection holds no person with this id. */
	deletePerson(connection: Connection, id: string): boolean {
		if (this.personJson(connection, id) === undefined) return false;
		connection.deletedPeople.add(id);
		return true;
	}

	/** JSON of the person with this id on the connection, if it holds one (seeded people are p_1, p_2, ...). */
	personJson(connection: Connection, id: string): string | undefined {
		if (connection.deletedPeople.has(id)) return undefined;
		const created = connection.createdPeopleById.get(id);
		if (created !== undefined) return connection.createdPeople[created];
		const seeded = /^p_([1-9]\d*)$/.exec(id);
		const index = seeded ? Number(seeded[1]) - 1 : -1;
		if (index < 0 || index >= connection.seededPeople) return undefined;
		return connection.updatedPeople.get(id) ?? this.seededPeople[index];
	}

	/** Replaces a person's JSON; false when the connection holds no person with this id. */
	replacePerson(connection: Connection, id: string, json: string): boolean {
		const created = connection.createdPeopleById.get(id);
		if (created !== undefined) connection.createdPeople[created] = json;
		else if (this.personJson(connection, id) !== undefined) connection.updatedPeople.set(id, json);
		else return false;
		return true;
	}

	addPerson(connection: Connection, id: string, json: string): void {
		connection.createdPeopleById.set(id, connection.createdPeople.length);
		connection.createdPeople.push(json);
	}

	countsJson(): JsonObject {
		const kinds: RecordKind[] = ['people', 'borrowers', 'documents', 'webhooks'];
		const byCredential: Record<string, JsonObject> = {};
		for (const id of this.credentials.keys())
			byCredential[id] = Object.fromEntries(kinds.map((kind) => [kind, this.count(kind, id)]));
		return {
			people: this.count('people'),
			credentials: this.count('credentials'),
			borrowers: this.count('borrowers'),
			documents: this.count('documents'),
			webhooks: this.count('webhooks'),
			byCredential,
		};
	}
}
