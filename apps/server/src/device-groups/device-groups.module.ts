import { deviceGroupApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { listMatching } from '../devices/device-list.service.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';
import type { FeatureModule } from '../module.ts';
import { changeMembers, createGroup, deleteGroup, getGroup, listGroups, updateGroup } from './groups.service.ts';
import { groupById, resolveListFilter, withGroup } from './list-filter.ts';
import { updateTags } from './tags.service.ts';

/** Device groups (static lists, saved filters) and staff tags on devices. */
export function deviceGroupsModule(ctx: AppContext): FeatureModule {
  return {
    name: 'device-groups',
    routes(scope) {
      serve(scope, ctx, deviceGroupApi, {
        list: ({ query }) => listGroups(ctx.db, query),

        create: async ({ body, audit, request }) => {
          audit({ targetType: 'deviceGroup', targetName: body.name });
          const { group, members } = await createGroup(ctx.db, body, principal(request));
          audit({ targetId: group.id, detail: { kind: group.kind, filter: group.filter, added: members?.added, errorCount: members?.errorCount } });
          return { ...group, ...(members ? { members } : {}) };
        },

        get: ({ params }) => getGroup(ctx.db, params.id),

        update: async ({ params, body, audit }) => {
          audit({ targetType: 'deviceGroup', targetId: params.id });
          const { before, after } = await updateGroup(ctx.db, params.id, body);
          audit({ targetName: after.name, detail: { before: { name: before.name, description: before.description, filter: before.filter }, after: body } });
          return after;
        },

        remove: async ({ params, audit }) => {
          audit({ targetType: 'deviceGroup', targetId: params.id });
          const group = await deleteGroup(ctx.db, params.id);
          audit({ targetName: group.name, detail: { kind: group.kind, filter: group.filter, memberCount: group.memberCount } });
          return group;
        },

        devices: async ({ params, query }) => {
          const { cursor, page, pageSize, ...filter } = query;
          const group = await groupById(ctx.db, params.id);
          return listMatching(ctx.db, withGroup(await resolveListFilter(ctx.db, filter), group), { cursor, page, pageSize });
        },

        members: async ({ params, body, audit }) => {
          audit({ targetType: 'deviceGroup', targetId: params.id });
          const result = await changeMembers(ctx.db, params.id, body);
          audit({ detail: { added: result.added, removed: result.removed, errorCount: result.errorCount } });
          return result;
        },

        tags: async ({ body, audit }) => {
          audit({ targetType: 'device', detail: { sns: body.sns?.length, filter: body.filter, set: body.set, remove: body.remove } });
          const { keys: _keys, ...result } = await updateTags(ctx.db, body);
          audit({ detail: { devices: result.devices, errorCount: result.errorCount } });
          return result;
        },
      });
    },
  };
}
