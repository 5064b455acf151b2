-- Made once with the schema-1 companion (commit 56a4606): games as it stored them.
BEGIN TRANSACTION;
CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
INSERT INTO "actions" VALUES(1,0,'42',1800000060.0);
INSERT INTO "actions" VALUES(1,1,'58',1800000120.0);
INSERT INTO "actions" VALUES(1,2,'38',1800000180.0);
INSERT INTO "actions" VALUES(1,3,'22',1800000240.0);
INSERT INTO "actions" VALUES(1,4,'40',1800000300.0);
INSERT INTO "actions" VALUES(1,5,'53',1800000360.0);
INSERT INTO "actions" VALUES(1,6,'72',1800000420.0);
INSERT INTO "actions" VALUES(1,7,'1',1800000480.0);
INSERT INTO "actions" VALUES(1,8,'16',1800000540.0);
INSERT INTO "actions" VALUES(1,9,'71',1800000600.0);
INSERT INTO "actions" VALUES(1,10,'80',1800000660.0);
INSERT INTO "actions" VALUES(1,11,'75',1800000720.0);
INSERT INTO "actions" VALUES(1,12,'34',1800000780.0);
INSERT INTO "actions" VALUES(1,13,'67',1800000840.0);
INSERT INTO "actions" VALUES(1,14,'76',1800000900.0);
INSERT INTO "actions" VALUES(1,15,'27',1800000960.0);
INSERT INTO "actions" VALUES(1,16,'5',1800001020.0);
INSERT INTO "actions" VALUES(1,17,'46',1800001080.0);
INSERT INTO "actions" VALUES(1,18,'9',1800001140.0);
INSERT INTO "actions" VALUES(1,19,'7',1800001200.0);
INSERT INTO "actions" VALUES(1,20,'63',1800001260.0);
INSERT INTO "actions" VALUES(1,21,'0',1800001320.0);
INSERT INTO "actions" VALUES(1,22,'3',1800001380.0);
INSERT INTO "actions" VALUES(1,23,'35',1800001440.0);
INSERT INTO "actions" VALUES(1,24,'4',1800001500.0);
INSERT INTO "actions" VALUES(2,0,'40',1800001620.0);
INSERT INTO "actions" VALUES(3,0,'40',1800001740.0);
INSERT INTO "actions" VALUES(4,0,'{"type":"place","kind":"leader","cell":"9×9"}',1800001860.0);
INSERT INTO "actions" VALUES(6,0,'{"type":"place","ship":"carrier","cell":"A1","dir":"h"}',1800002040.0);
INSERT INTO "actions" VALUES(6,1,'{"type":"place","ship":"battleship","cell":"E1","dir":"h"}',1800002040.0);
INSERT INTO "actions" VALUES(6,2,'{"type":"place","ship":"cruiser","cell":"J8","dir":"h"}',1800002040.0);
INSERT INTO "actions" VALUES(6,3,'{"type":"place","ship":"submarine","cell":"A8","dir":"h"}',1800002040.0);
INSERT INTO "actions" VALUES(6,4,'{"type":"place","ship":"destroyer","cell":"G3","dir":"h"}',1800002040.0);
CREATE TABLE calibrations (
        name TEXT PRIMARY KEY,
        created REAL NOT NULL,
        data TEXT NOT NULL
    );
CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        options TEXT NOT NULL,
        players TEXT NOT NULL DEFAULT '[]',
        scoreboard TEXT,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
        outcome TEXT
    );
INSERT INTO "games" VALUES(1,'uttt','{}','["red","blue"]','uttt:2p',1800000000.0,1800001500.0,'finished','{"winner":0,"reason":"three_boards","scores":[1.0,0.0]}');
INSERT INTO "games" VALUES(2,'uttt','{}','["you","cpu"]','uttt:cpu:hard',1800001560.0,1800001620.0,'active',NULL);
INSERT INTO "games" VALUES(3,'uttt','{}','["blue","red"]','uttt:2p',1800001680.0,1800001740.0,'active',NULL);
INSERT INTO "games" VALUES(4,'kuku','{"rule":"basic","first":0,"mode":"referee"}','["Aki","cpu"]','kuku:cpu:hard',1800001800.0,1800001860.0,'active',NULL);
INSERT INTO "games" VALUES(5,'kuku','{"rule":"basic","first":0,"mode":"tracker"}','["Aki","Ben"]','kuku:tracker',1800001920.0,1800001920.0,'active',NULL);
INSERT INTO "games" VALUES(6,'battleship','{"variant":"standard","advanced":false,"first":1,"mode":"referee"}','["you","cpu"]','battleship:cpu:easy',1800001980.0,1800002040.0,'active',NULL);
INSERT INTO "games" VALUES(7,'battleship','{"variant":"standard","advanced":false,"first":0,"mode":"tracker"}','["p1","p2"]','battleship:tracker',1800002100.0,1800002100.0,'active',NULL);
CREATE INDEX games_by_status ON games(status, updated);
COMMIT;
PRAGMA user_version=1;
