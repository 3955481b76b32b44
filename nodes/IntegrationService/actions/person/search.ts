import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PeopleIndex, PeoplePages } from '../../search/peopleIndex';
import { peopleIndexOf, peoplePages } from '../../search/peopleIndex';
import type { ServiceRun } from '../../transport';
import { connectionOf } from '../request';

/** What Person › Find and Create or Update share: the run's people index and what they cost. */

export function costNotice(perItem: string): INodeProperties {
	return {
		displayName: `The service has no search: this reads the people list once per run, about people ÷ 100 requests (10,000 people: 100 requests, 2 s at 50 requests per second), then ${perItem}, at the pace of Request Options › Max Requests Per Second. Later items look in what was read.`,
		name: 'peopleIndexNotice',
		type: 'notice',
		default: '',
	};
}

export function peopleSearch(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): { index: PeopleIndex; pages: PeoplePages } {
	const connection = connectionOf(ctx, itemIndex);
	return {
		index: peopleIndexOf(run, connection),
		pages: peoplePages(ctx, itemIndex, run, connection),
	};
}
