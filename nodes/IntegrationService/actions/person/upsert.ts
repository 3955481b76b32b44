import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { readBody } from '../../helpers/body';
import { toBoolean } from '../../helpers/kinds/boolean';
import { catalogueForm, formProperties } from '../../helpers/form';
import { inputError } from '../../helpers/validation';
import type { MatchKind, PersonKeys } from '../../search/matchKeys';
import { contactValues, keysOf, personIdOf, personKeys } from '../../search/matchKeys';
import type { PeopleIndex, PeoplePages } from '../../search/peopleIndex';
import type { MatchStep } from '../../search/upsert';
import { ambiguityMessage, decideUpsert } from '../../search/upsert';
import type { ServiceRun } from '../../transport';
import { shownFor } from '../entity/texts';
import { readOutput, shapeRecord } from '../output';
import { sendToEntity } from '../request';
import { optionsCollection, withSettings } from '../settings';
import type { OperationModule } from '../modules';
import { costNotice, peopleSearch } from './find';

const ORDERS: Record<string, { name: string; kinds: MatchKind[] }> = {
	emailThenPhone: { name: 'Email, Then Phone', kinds: ['email', 'phone'] },
	email: { name: 'Email Only', kinds: ['email'] },
	phoneThenEmail: { name: 'Phone, Then Email', kinds: ['phone', 'email'] },
	phone: { name: 'Phone Only', kinds: ['phone'] },
};

const FIELD_OF: Record<MatchKind, string> = { email: 'Emails', phone: 'Phones', name: 'Name' };

const matchByProperty: INodeProperties = {
	displayName: 'Match By',
	name: 'matchBy',
	type: 'options',
	options: Object.entries(ORDERS)
		.map(([value, { name }]) => ({ name, value }))
		.sort((a, b) => a.name.localeCompare(b.name, 'en')),
	default: 'emailThenPhone',
	description:
		'How an existing person is recognised, from the fields below: the first that finds anyone decides. One person found is updated, none is created, several fail the item and name them. Emails match trimmed and in any case; phones on their last ten digits (a country code in front does not count).',
};

const options = optionsCollection([
	{
		displayName: 'Merge Tags',
		name: 'mergeTags',
		type: 'boolean',
		default: true,
		description:
			"Whether an update adds the tags sent to the person's tags (on) or replaces them (off); when not added, the service decides",
	},
]);

interface Row {
	body: IDataObject;
	keys: PersonKeys;
	claims: string[];
	order: MatchKind[];
	qs: IDataObject;
}

function readRow(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject): Row {
	const matchBy = ctx.getNodeParameter('matchBy', itemIndex, 'emailThenPhone') as string;
	if (!Object.prototype.hasOwnProperty.call(ORDERS, matchBy)) {
		const problem = `must be one of ${Object.keys(ORDERS).join(', ')}`;
		throw inputError(ctx, itemIndex, 'Match By', problem);
	}
	const order = ORDERS[matchBy].kinds;
	const keys: PersonKeys = {
		email: keysOf('email', contactValues(body.emails)),
		phone: keysOf('phone', contactValues(body.phones)),
		name: [],
	};
	const claims = order.flatMap((kind) => keys[kind].map((key) => `${kind}:${key}`));
	if (claims.length === 0) {
		const fields = order.map((kind) => FIELD_OF[kind]).join(' or ');
		const problem = `has no ${order.join(' or ')} to match on, so nothing was sent (a phone needs 7 digits or more)`;
		throw inputError(ctx, itemIndex, fields, problem);
	}
	const given = (ctx.getNodeParameter('options', itemIndex, {}) ?? {}) as IDataObject;
	const qs: IDataObject = {};
	if (given.mergeTags !== undefined && given.mergeTags !== '')
		qs.mergeTags = String(toBoolean(ctx, itemIndex, 'Options › Merge Tags', given.mergeTags));
	return { body, keys, claims, order, qs };
}

/** Kind by kind in the row's order, up to the first kind that finds anyone. */
async function matchSteps(index: PeopleIndex, pages: PeoplePages, row: Row): Promise<MatchStep[]> {
	const steps: MatchStep[] = [];
	for (const kind of row.order) {
		const ids = await index.find(pages, kind, row.keys[kind]);
		steps.push({ kind, keys: row.keys[kind], ids });
		if (ids.length > 0) break;
	}
	return steps;
}

/** A person written: its keys as answered, and those sent (an answer may leave them out). */
function writtenKeys(answer: IDataObject, row: Row): PersonKeys {
	const answered = personKeys(answer);
	const union = (kind: MatchKind) => [...new Set([...answered[kind], ...row.keys[kind]])];
	return { email: union('email'), phone: union('phone'), name: answered.name };
}

function refuse(ctx: IExecuteFunctions, itemIndex: number, message: string, next: string) {
	const error = new NodeOperationError(ctx.getNode(), message, { itemIndex });
	error.context.nextStep = next;
	return error;
}

/** Holds the row's claims: no other row with one of its keys runs meanwhile. */
async function upsertRow(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	resource: ResourceSpec,
	row: Row,
): Promise<{ record: IDataObject; isNew: boolean }> {
	const { index, pages } = peopleSearch(ctx, itemIndex, run);
	return await index.exclusive(row.claims, async () => {
		const unsure = index.unsureOf(row.claims);
		if (unsure !== undefined) {
			const [kind, key] = unsure.claim.split(/:(.*)/);
			throw refuse(
				ctx,
				itemIndex,
				`Not created or updated: the create of item ${unsure.itemIndex} with this ${kind} (${key}) has an unknown outcome, so that person may exist already`,
				`Look the person up (Person › Find) before writing it again; nothing was sent for this item.`,
			);
		}
		const decision = decideUpsert(await matchSteps(index, pages, row));
		if (decision.action === 'ambiguous')
			throw refuse(
				ctx,
				itemIndex,
				ambiguityMessage(decision),
				'Ask the user which of these people is meant; do not pick one. Then change that person with Person › Update and its ID.',
			);
		const isNew = decision.action !== 'update';
		const where = isNew
			? {}
			: { path: [{ id: String(decision.id), field: 'Person ID' }], qs: row.qs };
		const method = isNew ? 'POST' : 'PUT';
		const sending = sendToEntity(ctx, itemIndex, run, resource, {
			method,
			body: row.body,
			...where,
		});
		// A create that may have reached the service: the person may exist, unseen by the index. Seen
		// before this item's claims are released (reactions run in the order they were added).
		sending.catch((error: unknown) => {
			const context = (error as { context?: IDataObject }).context;
			if (isNew && context?.mayHaveBeenProcessed === true) index.markUnsure(row.claims, itemIndex);
		});
		const record = await sending;
		const id = isNew ? personIdOf(record) : decision.id;
		if (id === undefined) index.markUnsure(row.claims, itemIndex);
		else index.remember(id, writtenKeys(record, row));
		return { record, isNew };
	});
}

/** One person found is updated, none is created, several fail the item naming their IDs. */
export function upsertOperation(resource: ResourceSpec): OperationModule {
	const form = catalogueForm(resource, 'create');
	const properties = [
		...costNotice('one request per item (the create or the update)'),
		matchByProperty,
		...formProperties(form),
		options,
	];
	return {
		description: updateDisplayOptions(shownFor(resource, 'upsert'), withSettings(properties)),
		async execute(itemIndex, run) {
			const row = readRow(this, itemIndex, readBody(this, itemIndex, form, true));
			const choice = readOutput(this, itemIndex);
			const { record, isNew } = await upsertRow(this, itemIndex, run, resource, row);
			return [{ ...shapeRecord(record, choice), isNew }];
		},
	};
}
