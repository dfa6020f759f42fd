-- The transfer kind as text (the database collation), text COLLATE "C" and a smallint code:
-- the same rows into the key and the three list indexes (docs/performance.md, "kind as a code").
-- psql -h 127.0.0.1 -U postgres -d postgres -f bench/sql/kind-codes.sql  (makes and drops kind_exp)
\set rows 400000
drop database if exists kind_exp;
create database kind_exp;
\c kind_exp
create table kx_text (b bigint not null, e int not null, tok bigint, f int, t int, kind text not null, amount numeric not null, primary key (b,e));
create index on kx_text (f, kind, (-b), (-e)) where f is not null;
create index on kx_text (t, kind, (-b), (-e)) where t is not null;
create index on kx_text (tok, kind, (-b), (-e)) where tok is not null;
create table kx_c (b bigint not null, e int not null, tok bigint, f int, t int, kind text collate "C" not null, amount numeric not null, primary key (b,e));
create index on kx_c (f, kind, (-b), (-e)) where f is not null;
create index on kx_c (t, kind, (-b), (-e)) where t is not null;
create index on kx_c (tok, kind, (-b), (-e)) where tok is not null;
create table kx_small (b bigint not null, e int not null, tok bigint, f int, t int, kind smallint not null, amount numeric not null, primary key (b,e));
create index on kx_small (f, kind, (-b), (-e)) where f is not null;
create index on kx_small (t, kind, (-b), (-e)) where t is not null;
create index on kx_small (tok, kind, (-b), (-e)) where tok is not null;
create table src as select i / 20 as b, i % 20 as e, (hashint4(i) & 15)::bigint as tok, (hashint4(i * 7) & 131071) as f, (hashint4(i * 13) & 131071) as t,
  (array['transfer','mint','burn','deposit','withdraw','fee','dust','slash'])[1 + (hashint4(i * 3) & 7)] as kind, (i * 1000)::numeric as amount
  from generate_series(0, :rows - 1) i;
create table src_small as select b, e, tok, f, t, (array_position(array['transfer','mint','burn','deposit','withdraw','fee','dust','slash'], kind))::smallint as kind, amount from src;
checkpoint;
\timing on
-- two rounds each, alternating, into emptied tables
truncate kx_text; insert into kx_text select * from src;
truncate kx_c; insert into kx_c select * from src;
truncate kx_small; insert into kx_small select * from src_small;
truncate kx_text; insert into kx_text select * from src;
truncate kx_c; insert into kx_c select * from src;
truncate kx_small; insert into kx_small select * from src_small;
\timing off
select relname, pg_size_pretty(pg_total_relation_size(oid)) from pg_class where relname in ('kx_text','kx_c','kx_small');
\c postgres
drop database kind_exp;
