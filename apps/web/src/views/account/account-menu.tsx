import { useState } from "react";
import { Link, useLocation } from "wouter";
import { signOut, type SessionUser } from "../../api/session";
import { attempt } from "../../api/use-async";
import "./account.css";

/** The signed-in user in the header: their account page, the users page for admins, and sign-out. */
export function AccountMenu({ user }: { user: SessionUser }) {
  const [, navigate] = useLocation();
  const [failed, setFailed] = useState(false);
  return (
    <div className="account-menu">
      {user.is_admin ? <Link href="/admin/users">Users</Link> : null}
      <span className="who">
        Signed in as <Link href="/account">{user.username}</Link>
      </span>
      <button
        type="button"
        onClick={async () => {
          const error = await attempt(signOut);
          setFailed(error !== undefined);
          if (!error) navigate("/experiments");
        }}
      >
        Sign out
      </button>
      {failed ? <span role="alert">Sign-out failed</span> : null}
    </div>
  );
}
