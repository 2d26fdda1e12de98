export * from './create-db-client';
export * from './ensure-database';
export * from './migrate';
export { Prisma } from './generated/prisma/client';
export type { PrismaClient } from './generated/prisma/client';
export type * from './generated/prisma/models';
