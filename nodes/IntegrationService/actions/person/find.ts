import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { toWholeNumber } from '../../helpers/kinds/number';
import { optionalText } from '../../helpers/kinds/text';
import { inputError } from '../../helpers/validation';
import type { MatchKind } from '../../search/matchKeys';
import { KEY_OF } from '../../search/matchKeys';
import { peopleIndexOf, peoplePages } from '../../search/peopleIndex';
import type { ServiceRun } from '../../transport';
import { shownFor } from '../entity/texts';
import { readOutput, shapeRecord } from '../output';
import { connectionOf, sendToEntity } from '../request';
import { optionsCollection, versioned, withSettings } from '../settings';
import type { OperationModule } from '../modules';

/** What reading the people index costs, each version naming where Max Requests Per Second is. */
export function costNotice(perItem: string): INodeProperties[] {
	const notice = (settings: string): INodeProperties => ({
		displayName: `The service has no search: this reads the people list once per run, about people ÷ 100 requests (10,000 people: 100 requests, 2 s at 50 requests per second), then ${perItem}, at the pace of ${settings} › Max Requests Per Second. Later items look in what was read.`,
		name: 'peopleIndexNotice',
		type: 'notice',
		default: '',
	});
	return versioned([notice('Request Options')], [notice('Options')]);
}

/** The run's people index for the item's connection, and how to read the people list. */
export function peopleSearch(ctx: IExecuteFunctions, itemIndex: number, run: ServiceRun) {
	const connection = connectionOf(ctx, itemIndex);
	return {
		index: peopleIndexOf(run, connection),
		pages: peoplePages(ctx, itemIndex, run, connection),
	};
}

const ASKED: Record<MatchKind, { label: string; placeholder: string; description: string }> = {
	email: {
		label: 'Email',
		placeholder: 'e.g. ada@example.com',
		description: 'Matched trimmed and in any case, against every email of each person',
	},
	phone: {
		label: 'Phone',
		placeholder: 'e.g. +1 555 010 0001',
		description:
			'Matched on its digits, against every phone of each person: the last ten when it has ten or more (so a country code or a trunk 0 in front does not count), else all of them; an extension does not count',
	},
	name: {
		label: 'Name',
		placeholder: 'e.g. Ada Lovelace',
		description: 'The whole name, in any case: first and last name, or the name the CRM shows',
	},
};

/** A model reads these fields of each match unless Fields to Return names others. */
const TOOL_FIELDS = ['id', 'name', 'emails', 'phones', 'stage', 'assignedUserId', 'updated'];

const COST = 'one request per person found (a Get)';

const properties: INodeProperties[] = [
	{
		displayName: 'Find By',
		name: 'findBy',
		type: 'options',
		options: (['email', 'name', 'phone'] as const).map((kind) => ({
			name: ASKED[kind].label,
			value: kind,
		})),
		default: 'email',
	},
	...(['email', 'phone', 'name'] as const).map(
		(kind): INodeProperties => ({
			displayName: ASKED[kind].label,
			name: kind,
			type: 'string',
			required: true,
			default: '',
			placeholder: ASKED[kind].placeholder,
			description: ASKED[kind].description,
			displayOptions: { show: { findBy: [kind] } },
		}),
	),
	optionsCollection([
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			hint: 'The people list is read only until this many people match',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{ name: 'One Item per Match', value: 'eachMatch' },
				{
					name: 'One Item With the Matches',
					value: 'oneItem',
					description: 'One item: the people found under "people", and their "count"',
				},
			],
			default: 'eachMatch',
		},
		{
			displayName: 'When Nothing Matches',
			name: 'whenNone',
			type: 'options',
			options: [
				{ name: 'Fail the Item', value: 'error' },
				{
					name: 'Output Nothing',
					value: 'empty',
					description: 'No item (with One Item With the Matches: an item with no people)',
				},
			],
			default: 'empty',
		},
	]),
];

function readKey(ctx: IExecuteFunctions, itemIndex: number): { kind: MatchKind; key: string } {
	const kind = ctx.getNodeParameter('findBy', itemIndex, 'email') as MatchKind;
	if (!Object.prototype.hasOwnProperty.call(ASKED, kind))
		throw inputError(ctx, itemIndex, 'Find By', 'must be email, phone or name');
	const { label } = ASKED[kind];
	const given = optionalText(ctx, itemIndex, label, ctx.getNodeParameter(kind, itemIndex, ''));
	const key = KEY_OF[kind](given);
	if (key !== undefined) return { kind, key };
	const problem =
		given === undefined || given.trim() === ''
			? 'is empty: there is nothing to find by'
			: 'has fewer than 7 digits: no phone number to match on';
	throw inputError(ctx, itemIndex, label, problem);
}

/** The people matching from the run's people index, each then read whole by its ID. */
export function findOperation(resource: ResourceSpec): OperationModule {
	return {
		description: updateDisplayOptions(
			shownFor(resource, 'find'),
			withSettings([...costNotice(COST), ...properties]),
		),
		async execute(itemIndex, run) {
			const { kind, key } = readKey(this, itemIndex);
			const options = (this.getNodeParameter('options', itemIndex, {}) ?? {}) as IDataObject;
			const limit =
				options.limit === undefined || options.limit === ''
					? 50
					: toWholeNumber(this, itemIndex, 'Options › Limit', options.limit, 1);
			const asked = readOutput(this, itemIndex);
			const choice = asked.asTool && !asked.fields ? { ...asked, fields: TOOL_FIELDS } : asked;
			const { index, pages } = peopleSearch(this, itemIndex, run);
			const ids = (await index.find(pages, kind, [key], limit)).slice(0, limit);
			if (ids.length === 0 && options.whenNone === 'error')
				throw new NodeOperationError(this.getNode(), `No person has this ${kind}`, { itemIndex });
			const people: IDataObject[] = [];
			for (const id of ids) {
				const path = [{ id: String(id), field: 'Person ID' }];
				const person = await sendToEntity(this, itemIndex, run, resource, { method: 'GET', path });
				people.push(shapeRecord(person, choice));
			}
			return options.output === 'oneItem' ? [{ people, count: people.length }] : people;
		},
	};
}
