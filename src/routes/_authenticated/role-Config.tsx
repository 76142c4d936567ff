import { createFileRoute, useRouter, useRouterState } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { createRole, deleteRole, getRole, getRoleHistory, updateRole } from '../../api/roles';
import { forgivingSearch, loadListPage, type ListResult } from '../../app/list-route';
import { requireAccess } from '../../app/require-access';
import type { AuditEntry } from '../../contract/lists';
import { roleListQuerySchema } from '../../contract/role-search';
import type { Role, RoleLocation } from '../../contract/roles';
import { hasPermission } from '../../permissions/rules';
import { SectionPage } from '../../ui/section-page';
import { toast } from '../../ui/toast/toast-store';
import { RoleEditor } from '../-components/roles/role-editor';
import { RolesList } from '../-components/roles/roles-list';

/** User roles (spec /role-Config, user roles view): the roles list in the URL; the editor opens above it. */
export const Route = createFileRoute('/_authenticated/role-Config')({
  validateSearch: forgivingSearch(roleListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'userRoles'),
  loader: async ({ context, deps, abortController }) => {
    const options = { signal: abortController.signal };
    // Imported here, not at the top: the entry chunk carries only this route's search check (docs/decisions.md).
    const api = import('../../api/roles');
    const [result, locations] = await Promise.all([
      loadListPage(async () => (await api).listRoles(context.api, deps, options)),
      api.then((loaded) => loaded.listRoleLocations(context.api, options)).catch(() => [] as RoleLocation[]),
    ]);
    return { result, locations };
  },
  pendingMs: 400,
  pendingComponent: () => <RolesPage result={null} locations={[]} />,
  component: function LoadedRolesPage() {
    const { result, locations } = Route.useLoaderData();
    return <RolesPage result={result} locations={locations} />;
  },
});

type Editing = { role: Role | null; history: AuditEntry[] };

function RolesPage({ result, locations }: { result: ListResult<Role> | null; locations: readonly RoleLocation[] }) {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const router = useRouter();
  const { permissions, api } = Route.useRouteContext();
  const busy = useRouterState({ select: (state) => state.isLoading });
  const [editing, setEditing] = useState<Editing | null>(null);
  const record = permissions.permissions;
  const canAdd = hasPermission(record, 'ur', 'add');
  const canEdit = hasPermission(record, 'ur', 'edit');
  const canDelete = hasPermission(record, 'ur', 'delete');
  const names = useMemo(() => new Map(locations.map((location) => [location.location_id, location.name])), [locations]);
  const locationName = useCallback((id: number) => names.get(id) ?? `location ${id}`, [names]);

  const open = useCallback(
    async (role: Role) => {
      const [fresh, history] = await Promise.all([getRole(api, role.role_id), getRoleHistory(api, role.role_id)]);
      setEditing({ role: fresh, history });
    },
    [api],
  );
  const onOpen = useCallback((role: Role) => void open(role).catch(() => undefined), [open]);

  return (
    <SectionPage title="User Roles">
      {canAdd && editing?.role !== null && (
        <div className="list-toolbar">
          <button type="button" className="button primary" onClick={() => setEditing({ role: null, history: [] })}>
            New role
          </button>
        </div>
      )}
      {editing && (
        <RoleEditor
          key={editing.role ? `${editing.role.role_id}-${editing.role.version}` : 'new'}
          role={editing.role}
          history={editing.history}
          editor={record}
          locations={locations}
          canEdit={editing.role ? canEdit : canAdd}
          canDelete={canDelete}
          save={(input, version) =>
            editing.role && version !== null ? updateRole(api, editing.role.role_id, { ...input, version }) : createRole(api, input)
          }
          remove={(version) => deleteRole(api, editing.role!.role_id, version)}
          onSaved={(role) => {
            toast({ title: role ? 'Role saved' : 'Role deleted' });
            void router.invalidate();
            if (role) void open(role).catch(() => undefined);
            else setEditing(null);
          }}
          reload={async () => {
            if (editing.role) await open(editing.role);
          }}
          onClose={() => setEditing(null)}
        />
      )}
      <RolesList
        search={search}
        result={result}
        busy={busy}
        locationName={locationName}
        onOpen={onOpen}
        openLabel={canEdit ? 'Edit' : 'View'}
        onSearch={(update) => void navigate({ search: (current) => update(current) })}
        onRetry={() => void router.invalidate()}
      />
    </SectionPage>
  );
}
