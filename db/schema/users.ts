import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const users = pgTable("users", {
  id: uuid().primaryKey(),
  /** Normalized: trimmed and lower-cased. */
  email: text().notNull().unique(),
  /** scrypt$N$r$p$salt$hash — never the password itself. */
  passwordHash: text().notNull(),
  name: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
