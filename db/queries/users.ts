import { eq } from "drizzle-orm";
import type { Database } from "../database.js";
import { users } from "../schema/index.js";

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Inserts the user; false when the email is taken (unique violation, decided by the database). */
export async function insertUser(db: Database, user: NewUser): Promise<boolean> {
  const rows = await db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning({ id: users.id });
  return rows.length === 1;
}

export async function findUserByEmail(db: Database, email: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}
