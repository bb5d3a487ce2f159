"""hogbench's own strategy files, known by their digests: the only code run without bubblewrap
when bubblewrap is missing and no one asked to turn the sandbox off.

The demo tournament's entrants are the files under ``strategies/``, written for this project:
good, mediocre, randomised and deliberately broken ones (an illegal move, a crash, a missing
return, a time-out), none hostile. So the README's first command can run on a machine without
bubblewrap (macOS, or a Linux without it) and still show each planted fault disqualified.

What makes a file "bundled" is its content, not where it lies or what it is called: every file
an entrant's worker would see (its snapshot: the file alone, or the student's whole folder)
must have the SHA-256 digest of one of the files below. The check is made on the very bytes
the worker is then given, so nothing can change between the check and the run. A student's
folder cannot claim it: one edited byte, or one extra file of its own beside a copy of ours
(a ``dice.py`` that a bundled file would import), and the entrant needs the sandbox as before.
A verbatim copy of our file gains nothing: it runs our code.

Never put a file under ``strategies/`` that needs containing (the hostile ones live in the
tests' own folder): ``tests/test_bundled.py`` checks that this manifest matches the folder and
that the files there import nothing but ``random``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

#: strategies/ file -> SHA-256 of its content (tests/test_bundled.py keeps this true)
MANIFEST: dict[str, str] = {
    "greed/test01_one_die.py": "47a1ed1ac187884025e2f05f40a7a72186cdb62e86c3583843e10332817a9fa0",
    "greed/test02_three_to_fifty.py": "0120e589ed9a63d4b83f8b3ef9936280c89f8d054398ce0f8da1cd5a2b3ce74b",
    "greed/test03_eight_to_seventy.py": "33ca701fdfdac7e556f4d8f72b9bb0605ea60c45c7090ed417f8a24dbbf09ca5",
    "greed/test04_catch_up.py": "9ce6a4d12b0fdae220c0fc65ab1ef05b3ddc5a64695d3af77d14eac27dec65b4",
    "greed/test05_room_third.py": "b3a4ca48e02fa3a3f308594513860de013b72919c747e2947d8bfbd1fc51b79a",
    "greed/test06_half_the_room.py": "c70ed0eca592efac18c500ee522f833f8b3a73080eec8656152a5d6a54322ad6",
    "greed/test07_careful_counter.py": "f52692ab15ac361ec7a6143e031fb11a15cfff01bfdd22acb08353d4c047f52f",
    "greed/test08_last_turn_counter.py": "618fa3db1e8e5626e99c040464a439d9cedec0412e65d193c0f18cffc6004901",
    "greed/test09_pass_judge.py": "d441394e03489a1a1c037ac0315bf17b3030beb77a9af10f0d87c680930286b7",
    "greed/test10_patient_judge.py": "7d74baaaa948fa5e553b98b145b1b43fa45205f7dc46532ad4d66de20e8b0f81",
    "hog_contest/always_roll_0.py": "9a751787f90f4935c70d64129834727c911e41ec2f380f45de4691e16045c4cd",
    "hog_contest/always_roll_4.py": "e88eaa4ddd7d1f3675ed6df56b99f947eda2a7c406d0fa918654ee4a9fb68e6e",
    "hog_contest/always_roll_6.py": "875883afa3237756f3316324a0f0046420b9bf09a37f05a573c378b145933ce0",
    "hog_contest/bacon.py": "bce4291cbc05db0623d4c44c2cea5f11873b82a3d00621cd7429a1197ce95b76",
    "hog_contest/buggy.py": "d3cd201e27c146476f5f8e2067986f0224af20bf21bbe860c83595ecc6a86c43",
    "hog_contest/crashes.py": "06dc28789b54fc5237a5419b8c1cd981927131defe0614002971b7e280c2dd1b",
    "hog_contest/final.py": "59ddbbf97d524c202d1af8e298479ecc0da2c6f12c83aafa5186a1d6d89513a0",
    "hog_contest/hangs.py": "7b91d499420faa8b1e4400ff92f39a0a0061274598c0173f198da7894a994219",
    "hog_contest/pork_chop.py": "70df19096cd9d91818834929cbc0178ad4ef9876c0f1741e0dd6ab5a70294e2b",
    "hog_contest/random_roller.py": "5219b2c33bdbd2c619e62b83bfb5c9d435ada1971d523a04b76d13d9a8eed51f",
    "hog_contest/swap.py": "550502851fd90c1b784d75665885356d41d57d972f7d9d5ca647dfdf2f7642b0",
    "hog_su20/always_roll_2.py": "006e626a7536d551995cf5680ffad7e981261324cd014887fa7d9b4eca139783",
    "hog_su20/always_roll_4.py": "2bdfd052c9300dbbc86335e8629ed2ac8fc4c21917177a6b0fb9957861899397",
    "hog_su20/always_roll_6.py": "e4f6db83fb62d0c911561e134ef3e44af5f6b6bb64ca1cdfbf0b78d29937994c",
    "hog_su20/always_roll_8.py": "28902a3a5d56ee8b524b6dd299f5f8abaa161ff698cd07727350f0f803b2e54b",
    "hog_su20/bacon.py": "d2a0a237c21baeed48aaef1a28dd04168c6ca9b490c199301be00730a6ba5663",
    "hog_su20/buggy.py": "eb5e76efe654cfda388787935fbda348f1e37bfbfea20bdc1b1bfe6012deadbf",
    "hog_su20/crashes.py": "4f31a0e01ed5519958de587481adcd98bffeb1ce98977ea150d9e9cc85431d84",
    "hog_su20/final.py": "46dedc807fbe6ac3913e44814abb8997809135b8ff19fdcc172ac511eac31d1c",
    "hog_su20/hangs.py": "4919a858277c9e07eca4a62088609a3163a26c4cd31987b2eb1d0731f788695f",
    "hog_su20/random_roller.py": "8499f5c9f513be1615f90b9786264209ed4145ad7a0dccc0dea8eeb64debacbe",
    "hog_su20/swap.py": "fa7b017db5f9685c57f064e994f01538c013288eb35034dc322c0f3702909420",
    "hog_su21/always_roll_0.py": "b2e38267f53429cf4f0ab0333f75467142315d8b947806bde614d046361e067a",
    "hog_su21/always_roll_10.py": "5baf62bc2007ea85673ff20e7725d6c299188b0c2e32ca947f278a45f0d49d95",
    "hog_su21/always_roll_2.py": "6d494d55ff4917471b735f003214eee663f7a21d2b43f54a7b060f4ef5cf62f0",
    "hog_su21/always_roll_3.py": "b1d51a4f42313ae72e1f1e684bb24ffe6de2a970b3ae212e65642b3473f3b861",
    "hog_su21/always_roll_4.py": "2d7b67f4b8aa186f0126390e5fb22fd068b1f1da6f4f2bd6c2042b933211f773",
    "hog_su21/always_roll_5.py": "b6d4189fa1128132d3a8ba533aaaecbc31ce4459deafa1161b6101e2ee4901a1",
    "hog_su21/always_roll_6.py": "0680dd0ba1d2e7b6c5dbbd705b2722a2dc58b2df08849e18dd56e5b023ef8565",
    "hog_su21/always_roll_8.py": "08122618a8266ba8eca757a40de9054d5fff3586414512e3475ec04a5791ec40",
    "hog_su21/boar_hunter.py": "514a9289f0a5c6bf4073c65e0a839d08958e8b937204bcb3805862f33a889717",
    "hog_su21/buggy_eleven.py": "46562869274a73e1894e97412d74a9cf4b1d85005059fb2acd6fa0ef89a02d7a",
    "hog_su21/course_placeholder.py": "d3f0000e0ca0c8b2ea52a657887578b5d033f9ddcb25e5525fe53ec06bd4a641",
    "hog_su21/crashes.py": "8b25131d4aab3e45a26b2a8a4397f993081ffbb4dbceb79fc0178ea19055f872",
    "hog_su21/endgame.py": "249acb4fc86d9e2ba94beefc6cafdb85a47124518547dfbffcbd16d04b542779",
    "hog_su21/final.py": "3c02567edefff425ac19e067310f6fc47f32ba595ee04db3c32fbeee1d670269",
    "hog_su21/forgot_return.py": "53818c2807fe8b23ce43ac6f60163f06c2819be327f23ecc32fa5f893123fc82",
    "hog_su21/lead_aware.py": "4bccba9910a549be49e9da1536eb7c1a07697cb991be1c771e1306eca6f32e05",
    "hog_su21/more_boar.py": "66056b5e23d6ff0ce15bf70050bd8d5fd161171fa4abf59b4e05febf6826445d",
    "hog_su21/more_boar_tuned.py": "27605a6b5b364db81349ae15231c7b03d58aa3b7c836a68e1bcf2fbd7e6ddcff",
    "hog_su21/piggypoints.py": "7d8167e9014103ca400e81e2c646ef353a58022c550d3d53ce9812291e2a0aae",
    "hog_su21/piggypoints_cautious.py": "e106ffa23ca5fbafc085f5888408d93e9f49c1829b9d8a6a7dea54c2bced6705",
    "hog_su21/random_roller.py": "d966adcea7e0b68f38643492e7690a47be9545d5f822396b75260f541f9b0f8d",
    "hog_su21/slowpoke.py": "055254f5c4062775cf844edc2891fda9fe02f711c091845fe7e7418afd3650f4",
}

_KNOWN = frozenset(MANIFEST.values())


def is_bundled(contents: Iterable[bytes]) -> bool:
    """Whether every one of CONTENTS (at least one) is the content of a bundled strategy file."""
    seen = False
    for data in contents:
        if hashlib.sha256(data).hexdigest() not in _KNOWN:
            return False
        seen = True
    return seen
