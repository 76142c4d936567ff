import { createFileRoute, useRouter, useRouterState } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import {
  deleteUser,
  exportUsersCsv,
  getUser,
  getUserHistory,
  inviteUser,
  listAssignableRoles,
  setUserStatus,
  updateUser,
} from '../../api/users';
import { forgivingSearch, loadListPage, type ListResult } from '../../app/list-route';
import { requireAccess } from '../../app/require-access';
import type { AuditEntry } from '../../contract/lists';
import { userListQuerySchema } from '../../contract/user-search';
import type { AssignableRole, StaffUser } from '../../contract/users';
import { hasPermission } from '../../permissions/rules';
import { SectionPage } from '../../ui/section-page';
import { EditUser } from '../-components/users/edit-user';
import { InviteUser } from '../-components/users/invite-user';
import { UsersList } from '../-components/users/users-list';

/** Users (spec /user-config, users view): the staff list in the URL; invite and edit open a panel above it. */
export const Route = createFileRoute('/_authenticated/user-config')({
  validateSearch: forgivingSearch(userListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'users'),
  // The API module is imported here, not at the top: the entry chunk carries only this route's search check.
  loader: ({ context, deps, abortController }) =>
    loadListPage(async () => (await import('../../api/users')).listUsers(context.api, deps, { signal: abortController.signal })),
  pendingMs: 400,
  pendingComponent: () => <UsersPage result={null} />,
  component: function LoadedUsersPage() {
    return <UsersPage result={Route.useLoaderData()} />;
  },
});

type Panel = { kind: 'invite'; roles: AssignableRole[] } | { kind: 'edit'; user: StaffUser; history: AuditEntry[]; roles: AssignableRole[] };

function UsersPage({ result }: { result: ListResult<StaffUser> | null }) {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const router = useRouter();
  const { permissions, api } = Route.useRouteContext();
  const busy = useRouterState({ select: (state) => state.isLoading });
  const [panel, setPanel] = useState<Panel | null>(null);
  const record = permissions.permissions;
  const canInvite = hasPermission(record, 'u', 'add');
  const mayEdit = hasPermission(record, 'u', 'edit');
  // Nobody edits their own account here: the server refuses a change of one's own role or status anyway.
  const canEdit = useCallback((user: StaffUser) => mayEdit && user.email !== permissions.email, [mayEdit, permissions.email]);

  const openEdit = useCallback(
    async (user: StaffUser) => {
      const [fresh, history, roles] = await Promise.all([
        getUser(api, user.user_id),
        getUserHistory(api, user.user_id),
        listAssignableRoles(api),
      ]);
      setPanel({ kind: 'edit', user: fresh, history, roles });
    },
    [api],
  );
  const openInvite = async () => setPanel({ kind: 'invite', roles: await listAssignableRoles(api) });

  return (
    <SectionPage title="Users">
      {canInvite && panel?.kind !== 'invite' && (
        <div className="list-toolbar">
          <button type="button" className="button primary" onClick={() => void openInvite().catch(() => undefined)}>
            Invite user
          </button>
        </div>
      )}
      {panel?.kind === 'invite' && (
        <InviteUser
          roles={panel.roles}
          invite={async (input) => {
            const sent = await inviteUser(api, input);
            void router.invalidate();
            return sent;
          }}
          onClose={() => setPanel(null)}
        />
      )}
      {panel?.kind === 'edit' && (
        <EditUser
          user={panel.user}
          history={panel.history}
          roles={panel.roles}
          save={(update) => updateUser(api, panel.user.user_id, update)}
          setStatus={(status, version) => setUserStatus(api, panel.user.user_id, { status, version })}
          remove={
            hasPermission(record, 'u', 'delete')
              ? async (version) => {
                  await deleteUser(api, panel.user.user_id, version);
                  void router.invalidate();
                }
              : undefined
          }
          reload={async () => {
            await openEdit(panel.user);
            void router.invalidate();
          }}
          onClose={() => setPanel(null)}
        />
      )}
      <UsersList
        search={search}
        result={result}
        busy={busy}
        canEdit={canEdit}
        onEdit={(user) => void openEdit(user).catch(() => undefined)}
        onSearch={(update) => void navigate({ search: (current) => update(current) })}
        onRetry={() => void router.invalidate()}
        onExport={(onProgress) => exportUsersCsv(api, search, onProgress)}
      />
    </SectionPage>
  );
}
