import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PeopleIndex, PeoplePages } from '../../search/peopleIndex';
import { peopleIndexOf, peoplePages } from '../../search/peopleIndex';
import type { ServiceRun } from '../../transport';
import { connectionOf } from '../request';

/** What Person › Find and Create or Update share: the run's people index and what they cost. */

/**
 * The editor's notice of what an operation that reads the people index costs; `settings` names the
 * collection that holds Max Requests Per Second (version 1: Request Options, version 2: Options).
 */
export function costNotice(perItem: string, settings: string): INodeProperties {
	return {
		displayName: `The service has no search: this reads the people list once per run, about people ÷ 100 requests (10,000 people: 100 requests, 2 s at 50 requests per second), then ${perItem}, at the pace of ${settings} › Max Requests Per Second. Later items look in what was read.`,
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
