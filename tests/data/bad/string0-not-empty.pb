


€­â
€ÚÄ	

€‡§("€ "
" "* * 2x2samples2count2cpu2nanoseconds2	main.main2	main.work2main.go2/bin/appP€”ëÜZ`€­â